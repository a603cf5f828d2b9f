import Model
import XCTest

@testable import Visit

/// The in-app intents filled from a template equal the intents built afresh, for tokens of
/// every character a token may hold, apps with and without their own Play URL, and short
/// links with and without a query or bytes that need escaping.
final class InAppIntentTemplateTests: XCTestCase {
    private let apps = [
        AndroidPlatform(packageName: "com.example.app"),
        AndroidPlatform(
            packageName: "com.example.app",
            playStoreUrl: "https://play.google.com/store/apps/details?id=com.example.app&hl=pt_BR&utm_source=x%20y"),
    ]
    private let targets = ["/invite", "/invite?ref=ig&x=a%20b", "/é?q=#frag", "/k?%zz"]

    private func fresh(_ kind: InAppIntentTemplate.Kind, _ android: AndroidPlatform, _ token: String, _ target: String)
        -> String
    {
        let play = PlayStoreIntent.url(app: android, token: token)
        guard kind == .appIntent else { return play }
        return try! AppIntent.url(
            link: "https://go.example.com" + target, packageName: android.packageName, fallbackURL: play)
    }

    func testAFilledTemplateIsTheIntentBuiltAfresh() {
        var random = SeededGenerator(seed: 36)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for android in apps {
            for kind in [InAppIntentTemplate.Kind.playIntent, .appIntent] {
                let template = InAppIntentTemplate(android: android, kind: kind)
                // Once in the Play intent's data and once in its fallback; the app intent nests it.
                XCTAssertEqual(template.slots.count, 2)
                for target in targets {
                    for _ in 0..<20 {
                        let token = "bqmh_" + String((0..<43).map { _ in alphabet[Int(random.next() % 64)] })
                        XCTAssertEqual(
                            template.location(token: token, host: "go.example.com", target: target),
                            fresh(kind, android, token, target), "\(kind) \(target)")
                    }
                }
            }
        }
    }

    func testATokenOfAnotherLengthIsLeftToTheCaller() {
        let template = InAppIntentTemplate(android: apps[0], kind: .playIntent)
        XCTAssertNil(template.location(token: "bqmh_short", host: "go.example.com", target: "/k"))
    }

    func testTheCacheKeepsOneTemplatePerAppAndKind() {
        var cache = InAppIntentCache(capacity: 2)
        _ = cache.template(apps[0], kind: .playIntent)
        _ = cache.template(apps[0], kind: .playIntent)
        XCTAssertEqual(cache.count, 1)
        _ = cache.template(apps[1], kind: .playIntent)
        XCTAssertEqual(cache.count, 2)
        _ = cache.template(apps[0], kind: .appIntent)
        XCTAssertEqual(cache.count, 1)
    }
}
