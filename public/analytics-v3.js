/* biqli-edge analytics v3: everything v2 does (keeps the click id, bq_id, of a tracked
   short link as a first-party cookie and takes it out of the address bar; on a page
   reached through the site's own URL with a query value, https://shop.example.com/?via=BOB,
   asks the link domain for a click of https://<link domain>/BOB with the workspace's
   browser key and keeps its id the same way; a bq_id in the URL wins), sending only what
   the edge reads: the link's domain and key, and the query values the page names in
   data-forward-params (for the link's dynamic values), never the page's address, its
   other query values or its fragment (v2 sends location.href).
   Served at /_biqli/analytics-v3.js on every link domain; this file never changes
   (the README's integrity hash names it): a new behaviour is a new version. */
(function () {
  "use strict";
  var NAME = "bq_id";
  var ID = /^biq_clk_[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
  var LINK_KEY = /^[A-Za-z0-9_-]{1,64}$/;
  var PARAM = /^[A-Za-z0-9_.~-]{1,64}$/;
  var MAX_FORWARDED = 20; // the edge keeps at most 20 dynamic values
  var REUSE_MS = 30 * 60 * 1000; // the same link again within this: the same click
  var script = document.currentScript;
  var attr = function (name) {
    return script ? script.getAttribute(name) : null;
  };
  var domain = (attr("data-domain") || "").replace(/^\./, "").toLowerCase();
  var days = parseInt(attr("data-cookie-days") || "90", 10);
  if (!(days > 0 && days <= 400)) days = 90;
  var key = attr("data-publishable-key") || "";
  var param = attr("data-query-param") || "via";
  if (!PARAM.test(param)) param = "via";
  // The query parameters whose values the edge may keep as the link's dynamic values.
  var forward = Object.create(null);
  (attr("data-forward-params") || "").split(/[\s,]+/).forEach(function (name) {
    if (PARAM.test(name) && name !== NAME) forward[name] = true;
  });
  // The edge that served this script, unless the page names another link domain.
  var edge = null;
  try {
    edge = script ? new URL(script.src) : null;
  } catch (e) {
    edge = null;
  }
  var linkDomain = (attr("data-link-domain") || (edge ? edge.hostname : "")).toLowerCase();

  var keep = function (id) {
    var host = window.location.hostname.toLowerCase();
    var cookie = NAME + "=" + id + "; Path=/; Max-Age=" + days * 86400 + "; SameSite=Lax";
    // A Domain the page is not inside would be refused by the browser: host-only then.
    if (domain && (host === domain || host.slice(-domain.length - 1) === "." + domain)) {
      cookie += "; Domain=" + domain;
    }
    if (window.location.protocol === "https:") cookie += "; Secure";
    document.cookie = cookie;
  };
  var current = function () {
    var m = document.cookie.match(/(?:^|;\s*)bq_id=([^;]*)/);
    return m ? m[1] : null;
  };

  // The query's bq_id pairs, and the query without them, byte for byte otherwise; the
  // value of the tracking parameter (the last one that can be a link's key); the pairs
  // to forward, as they are (the edge decodes them).
  var search = window.location.search.replace(/^\?/, "");
  var kept = [];
  var forwarded = [];
  var found = false;
  var id = null;
  var via = null;
  search.split("&").forEach(function (pair) {
    if (pair === "") return;
    var eq = pair.indexOf("=");
    var name = eq < 0 ? pair : pair.slice(0, eq);
    var value = eq < 0 ? "" : pair.slice(eq + 1);
    if (name === param && LINK_KEY.test(value)) via = value;
    if (forward[name] === true && eq > 0 && forwarded.length < MAX_FORWARDED) forwarded.push(pair);
    if (name !== NAME) {
      kept.push(pair);
      return;
    }
    found = true;
    if (ID.test(value)) id = value; // the last valid one: the edge appends its own last
  });

  if (id) keep(id);
  if (found && window.history && window.history.replaceState) {
    var query = kept.length ? "?" + kept.join("&") : "";
    window.history.replaceState(window.history.state, "", window.location.pathname + query + window.location.hash);
  }
  if (id || !via || !key || !edge || !linkDomain || !window.fetch) return;

  // The same browser landing on the same link again soon keeps its click.
  var memory = "biqli_click:" + linkDomain + "/" + via;
  try {
    var last = JSON.parse(window.localStorage.getItem(memory) || "null");
    if (last && ID.test(last.id) && Date.now() - last.at < REUSE_MS && current() === last.id) return;
  } catch (e) {
    // No storage (private mode, blocked): no reuse.
  }
  var sent = { domain: linkDomain, key: via };
  if (forwarded.length) sent.query = forwarded.join("&");
  window
    .fetch(edge.origin + "/api/v1/track/click", {
      method: "POST",
      mode: "cors",
      credentials: "omit",
      headers: { Authorization: "Bearer " + key, "Content-Type": "application/json" },
      body: JSON.stringify(sent)
    })
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .then(function (body) {
      if (!body || !ID.test(body.clickId || "")) return;
      keep(body.clickId);
      try {
        window.localStorage.setItem(memory, JSON.stringify({ id: body.clickId, at: Date.now() }));
      } catch (e) {
        // No storage: the cookie is what matters.
      }
    })
    .catch(function () {
      // Tracking never breaks the page.
    });
})();
