// The Resolver module; see ../shared/ARCHITECTURE.md.
