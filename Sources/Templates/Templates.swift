// The Templates module; see ../shared/ARCHITECTURE.md.
