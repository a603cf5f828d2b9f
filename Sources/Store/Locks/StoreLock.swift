/// The fleet-wide locks write bodies can take (`StoreLocking.lock`).
public enum StoreLock: Int64, Sendable {
    /// Creating or rotating the receipt signing key: once for the fleet, not once per node.
    case signingKeys = 0x6269_716C_6910
    /// Making a secret every node shares.
    case fleetSecrets = 0x6269_716C_6911
}
