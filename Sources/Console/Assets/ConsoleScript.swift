/// `console.js`: the console's only script, loaded from the same origin (the policy
/// allows no inline script). It only enhances pages that work without it: copy buttons
/// appear where the Clipboard API is available, and UTC times are shown in the
/// viewer's time zone.
enum ConsoleScript {
    static let text = #"""
        (function () {
          "use strict";
          var status = document.getElementById("copy-status");
          document.querySelectorAll("button[data-copy]").forEach(function (button) {
            var source = document.getElementById(button.getAttribute("data-copy"));
            if (!source || !navigator.clipboard || !window.isSecureContext) { return; }
            button.hidden = false;
            button.addEventListener("click", function () {
              navigator.clipboard.writeText(source.textContent.trim()).then(function () {
                if (status) { status.textContent = "Copied to the clipboard."; }
              }, function () {
                if (status) { status.textContent = "Copying failed; select the text instead."; }
              });
            });
          });
          var format;
          try {
            format = new Intl.DateTimeFormat(undefined, {
              year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
              second: "2-digit", timeZoneName: "short"
            });
          } catch (e) { return; }
          document.querySelectorAll("time[data-utc]").forEach(function (element) {
            var date = new Date(element.getAttribute("datetime"));
            if (isNaN(date.getTime())) { return; }
            element.title = element.textContent;
            element.textContent = format.format(date);
          });
        })();
        """#
}
