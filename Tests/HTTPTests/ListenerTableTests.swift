import Foundation
import XCTest

@testable import HTTP

final class ListenerTableTests: XCTestCase {
    // Real rows of /proc/net/tcp and /proc/net/tcp6 (little-endian machine).
    let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1061 1 0000000048c39b92 100 0 0 10 0
           1: 0100007F:47FF 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 52152 1 00000000ca76b802 100 0 0 10 0
           2: 0100007F:47FF 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 52999 1 00000000ca76b802 20 4 30 10 -1
        """
    let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7001 1 0000000000000000 100 0 0 10 0
        """

    func testListeningRowsAreParsedWithAddressesInNetworkOrder() {
        let rows = ListenerTable.parse(tcp, addressBytes: 4)
        XCTAssertEqual(
            rows,
            [
                .init(address: [0, 0, 0, 0], port: 2024, inode: 1061),
                .init(address: [127, 0, 0, 1], port: 18431, inode: 52152),
            ], "the established row (state 01) is not a listener")
        let v6 = ListenerTable.parse(tcp6, addressBytes: 16)
        XCTAssertEqual(v6, [.init(address: Array(repeating: 0, count: 15) + [1], port: 8080, inode: 7001)])
    }

    func testOthersOverlappingAnAddressAreTheSamePortOnTheSameOrAnUnspecifiedAddress() {
        let table = ListenerTable(entries: [
            .init(address: [127, 0, 0, 1], port: 8443, inode: 1),
            .init(address: [127, 0, 0, 1], port: 8443, inode: 2),
            .init(address: [0, 0, 0, 0], port: 8080, inode: 3),
            .init(address: [10, 0, 0, 1], port: 9000, inode: 4),
            .init(address: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1], port: 7000, inode: 5),
        ])
        let loopback: [UInt8] = [127, 0, 0, 1]
        XCTAssertEqual(table.others(overlapping: loopback, port: 8443, ours: [1]).map(\.inode), [2])
        XCTAssertEqual(table.others(overlapping: loopback, port: 8443, ours: [1, 2]), [])
        XCTAssertEqual(table.others(overlapping: loopback, port: 8080, ours: []).map(\.inode), [3])
        XCTAssertEqual(table.others(overlapping: [0, 0, 0, 0], port: 9000, ours: []).map(\.inode), [4])
        XCTAssertEqual(table.others(overlapping: loopback, port: 9000, ours: []), [])
        XCTAssertEqual(table.others(overlapping: loopback, port: 7000, ours: []).map(\.inode), [5])
    }

    func testASecondSocketJoiningThroughReusePortIsFound() throws {
        let ours = try ListeningSocket.open(.init(host: "127.0.0.1", port: 0), kind: .http, backlog: 8)
        defer { close(ours.fd) }
        XCTAssertTrue(
            ListenerTable.current().entries.contains {
                $0.port == ours.address.port && $0.address == [127, 0, 0, 1] && $0.inode == ours.inode
            })
        XCTAssertNoThrow(try ListeningSocket.verifyExclusive([ours]))
        // What another process's edge did: join the same port with SO_REUSEPORT.
        let intruder = try ListeningSocket.open(ours.address, kind: .http, backlog: 8)
        defer { close(intruder.fd) }
        XCTAssertThrowsError(try ListeningSocket.verifyExclusive([ours])) { error in
            XCTAssertEqual(error as? HTTPServerError, .addressHeldElsewhere("127.0.0.1:\(ours.address.port)"))
        }
        XCTAssertNoThrow(try ListeningSocket.verifyExclusive([ours, intruder]), "both are ours")
    }
}
