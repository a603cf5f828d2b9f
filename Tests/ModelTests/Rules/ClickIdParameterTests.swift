import XCTest

@testable import Model

final class ClickIdParameterTests: XCTestCase {
    private let id = "biq_clk_01JDEM0CLK000000000000000A"

    func testTheIdEndsTheQueryAndTheFragmentStaysLast() {
        let cases: [(String, String)] = [
            ("https://shop.example", "https://shop.example?bq_id=\(id)"),
            ("https://shop.example/", "https://shop.example/?bq_id=\(id)"),
            ("https://shop.example/p?a=1", "https://shop.example/p?a=1&bq_id=\(id)"),
            ("https://shop.example/p?a=1&b=%20x+y", "https://shop.example/p?a=1&b=%20x+y&bq_id=\(id)"),
            ("https://shop.example/p?", "https://shop.example/p?bq_id=\(id)"),
            ("https://shop.example/p?a=1&", "https://shop.example/p?a=1&bq_id=\(id)"),
            ("https://shop.example/p#top", "https://shop.example/p?bq_id=\(id)#top"),
            ("https://shop.example/p?a=1#x?y=2", "https://shop.example/p?a=1&bq_id=\(id)#x?y=2"),
            ("https://shop.example/p#", "https://shop.example/p?bq_id=\(id)#"),
            ("https://shop.example/ü?q=ä", "https://shop.example/ü?q=ä&bq_id=\(id)"),
        ]
        for (url, want) in cases {
            XCTAssertEqual(ClickIdParameter.append(to: url, clickId: id), want, url)
        }
    }

    func testAnIdTheDestinationAlreadyHadIsKeptAndOursComesLast() {
        // The destination's query is the customer's: not rewritten. The script reads the last one.
        XCTAssertEqual(
            ClickIdParameter.append(to: "https://shop.example/?bq_id=old", clickId: id),
            "https://shop.example/?bq_id=old&bq_id=\(id)")
    }
}
