/// Who a request acts as, once a route group's authentication middleware knows (a
/// workspace key, a console session): kept in `RequestContext.identity` for the route.
public protocol RequestIdentity: Sendable {}
