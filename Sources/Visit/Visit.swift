// The Visit module; see ../shared/ARCHITECTURE.md.
