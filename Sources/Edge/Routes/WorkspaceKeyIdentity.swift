import HTTP
import Management

/// A workspace-API request's identity once `ManagementAuthorize` let it through: the
/// secret key it acts as.
struct WorkspaceKeyIdentity: RequestIdentity {
    let key: ManagementKey
}
