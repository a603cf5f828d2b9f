/* biqli-edge analytics v1: keeps the click id (bq_id) of a tracked short link as a
   first-party cookie, for the site's server to send with a lead or a sale.
   Served at /_biqli/analytics-v1.js on every link domain; this file never changes
   (the README's integrity hash names it): a new behaviour is a new version. */
(function () {
  "use strict";
  var NAME = "bq_id";
  var ID = /^biq_clk_[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
  var script = document.currentScript;
  var attr = function (name) {
    return script ? script.getAttribute(name) : null;
  };
  var domain = (attr("data-domain") || "").replace(/^\./, "").toLowerCase();
  var days = parseInt(attr("data-cookie-days") || "90", 10);
  if (!(days > 0 && days <= 400)) days = 90;

  // The query's bq_id pairs, and the query without them, byte for byte otherwise.
  var search = window.location.search.replace(/^\?/, "");
  var kept = [];
  var found = false;
  var id = null;
  search.split("&").forEach(function (pair) {
    if (pair === "") return;
    var eq = pair.indexOf("=");
    var key = eq < 0 ? pair : pair.slice(0, eq);
    if (key !== NAME) {
      kept.push(pair);
      return;
    }
    found = true;
    var value = eq < 0 ? "" : pair.slice(eq + 1);
    if (ID.test(value)) id = value; // the last valid one: the edge appends its own last
  });
  if (!found) return;

  if (id) {
    var host = window.location.hostname.toLowerCase();
    var cookie = NAME + "=" + id + "; Path=/; Max-Age=" + days * 86400 + "; SameSite=Lax";
    // A Domain the page is not inside would be refused by the browser: host-only then.
    if (domain && (host === domain || host.slice(-domain.length - 1) === "." + domain)) {
      cookie += "; Domain=" + domain;
    }
    if (window.location.protocol === "https:") cookie += "; Secure";
    document.cookie = cookie;
  }

  if (window.history && window.history.replaceState) {
    var query = kept.length ? "?" + kept.join("&") : "";
    window.history.replaceState(window.history.state, "", window.location.pathname + query + window.location.hash);
  }
})();
