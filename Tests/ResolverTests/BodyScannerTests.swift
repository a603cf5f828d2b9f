import Core
import XCTest

@testable import Resolver

/// `OpenRequestScanner` (the fast path for SDK-shaped bodies) never decides
/// differently from the general parser: whatever it accepts, the parser accepts
/// with the same members, and `decode` gives exactly the answer (request or
/// error) of parse-then-validate for every body, including broken ones.
final class BodyScannerTests: XCTestCase {
    private let app = "biq_mapp_" + ULID.make(milliseconds: 1_700_000_000_000)

    private func general(_ body: [UInt8]) -> Result<OpenRequest, ResolverError> {
        Result { () throws(ResolverError) in try OpenRequestValidator.validate(OpenRequestValidator.parse(body)) }
    }

    private func decoded(_ body: [UInt8]) -> Result<OpenRequest, ResolverError> {
        Result { () throws(ResolverError) in try OpenRequestValidator.decode(body) }
    }

    private func assertSame(_ body: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let text = String(decoding: body, as: UTF8.self)
        if let scanned = OpenRequestScanner.scan(body) {
            let members = try? OpenRequestValidator.parse(body)
            XCTAssertNotNil(members, "scanner accepted what the parser refuses: \(text)", file: file, line: line)
            if let members {
                XCTAssertEqual(try? OpenRequestValidator.Fields(members), scanned, text, file: file, line: line)
            }
        }
        XCTAssertEqual(decoded(body), general(body), text, file: file, line: line)
    }

    private var sdkBodies: [[UInt8]] {
        var ios = SDKRequest.ios(app: app, key: "k")
        ios.deepLink = "https://go.example.test/invite?ref=A&x=\"q\"\\"
        ios.domain = "go.example.test"
        var android = SDKRequest.android(app: app, key: "k")
        android.handoffToken = "bqmh_" + String(repeating: "a", count: 43)
        var shuffled = SDKRequest.android(app: app, key: "k")
        shuffled.order = SDKRequest.defaultOrder.reversed()
        return [
            ios.body, android.body, shuffled.body, SDKRequest.ios(app: app, key: "k").body,
            Array(" \n{ \"eventId\" : \"open_12345678\" ,\t\"appId\":\"\(app)\" }\r\n ".utf8),
            Array("{}".utf8), Array("{\"platform\":\"ios\"}".utf8),
        ]
    }

    func testScannerAcceptsEverySDKBody() {
        for body in sdkBodies.prefix(4) {
            XCTAssertNotNil(OpenRequestScanner.scan(body), String(decoding: body, as: UTF8.self))
            assertSame(body)
        }
    }

    /// The name switch picks by length and first byte: each member must come back
    /// from its own name, and a name one byte off in any place must not.
    func testEveryMemberNameIsRecognisedAndNothingNearIt() {
        for field in OpenRequestScanner.Field.allCases {
            let name = Array(String(describing: field).utf8)
            XCTAssertEqual(name.withUnsafeBufferPointer(OpenRequestScanner.Field.named), field)
            for k in name.indices {
                var near = name
                near[k] ^= 0x20
                XCTAssertNil(near.withUnsafeBufferPointer(OpenRequestScanner.Field.named), "\(near)")
            }
            XCTAssertNil((name + [0x73]).withUnsafeBufferPointer(OpenRequestScanner.Field.named))
            XCTAssertNil(Array(name.dropLast()).withUnsafeBufferPointer(OpenRequestScanner.Field.named))
        }
    }

    func testBodiesTheScannerLeavesToTheParser() {
        let cases = [
            #"{"eventId":"open_\u0031234567"}"#, #"{"eventId":"open_é1234567"}"#, #"{"firstOpen":1}"#,
            #"{"attestation":{}}"#, #"{"unknown":"x"}"#, #"{"eventId":"a","eventId":"b"}"#, #"{"even\u0074Id":"x"}"#,
            #"{"eventId":"a",}"#, #"{"eventId":"a"} x"#, #"["eventId"]"#, #"{"eventId":"a\x"}"#, #"{"eventId":tru}"#,
            "{\"eventId\":\"a\tb\"}", #"{"domain":["x"]}"#, #"{"unknown":"x","eventId":"a","eventId":"b"}"#,
            #"{"eventId":"a" "appId":"b"}"#, #"{"eventId"  "a"}"#, "{\"eventId\":\"a\"", "",
        ]
        for text in cases { assertSame(Array(text.utf8)) }
    }

    /// Every single-byte deletion, duplication and replacement of SDK bodies.
    func testMutationsDecideLikeTheParser() {
        let replacements: [UInt8] = Array(#"{}[]",:\/tfn0 -éu"#.utf8) + [0x00, 0x1F, 0x7F, 0xFF]
        for body in sdkBodies {
            for i in body.indices {
                var deleted = body
                deleted.remove(at: i)
                assertSame(deleted)
                var doubled = body
                doubled.insert(body[i], at: i)
                assertSame(doubled)
                for r in replacements where r != body[i] {
                    var replaced = body
                    replaced[i] = r
                    assertSame(replaced)
                }
            }
        }
    }
}
