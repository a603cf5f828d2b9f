import HTTPMessages
import Templates

/// `GET /console/sign-in`: the form (a workspace secret key), and its answers to a wrong
/// key (401) or too many (429), with the reason under the field.
enum SignInPage {
    static func render(
        status: Int = 200, csrf: String, error: String? = nil, extraHeaders: [(String, String)] = []
    ) -> HTTPResponse {
        let input: HTML =
            error == nil
            ? "<input name=\"key\" id=\"key\" type=\"password\" autocomplete=\"current-password\" spellcheck=\"false\" required>"
            : """
            <input name="key" id="key" type="password" autocomplete="current-password" spellcheck="false" required \
            aria-invalid="true" aria-describedby="key-error">
            """
        let message: HTML = error.map { "<p class=\"field-error\" id=\"key-error\">\($0)</p>" } ?? .empty
        let main: HTML = """
            <div class="sign-in">
            <h1>Sign in</h1>
            <p>Use a workspace secret key (<code>biqli_sk_…</code>). Create one on the edge's machine with \
            <code>biqli-edge keys create --name NAME</code>.</p>
            <form method="post" action="\(ConsolePaths.signIn)">
            <input type="hidden" name="csrf" value="\(csrf)">
            <div class="field"><label for="key">Workspace secret key</label>\(input)\(message)</div>
            <button type="submit" id="sign-in" class="primary">Sign in</button>
            </form>
            </div>
            """
        return ConsoleLayout.publicPage(status: status, title: "Sign in", main: main, extraHeaders: extraHeaders)
    }
}
