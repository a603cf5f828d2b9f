// The Association module; see ../shared/ARCHITECTURE.md.
