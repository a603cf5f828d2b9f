// Deep View: Continue copies the handoff URL, then opens the App Store or TestFlight.
// Loaded as an external file with the response's CSP nonce; no framework, no network.
// Contract with the page (Sources/Templates/Pages/DeepViewPage.swift):
//   <a id="biqli-continue" href="STORE_URL" data-handoff="HANDOFF_URL">   the button
//   <p id="biqli-status" data-copied="...">                              the live status line
// Without JavaScript the button is a plain link to the store: the visitor still gets the app,
// only the copy (and so the exact deferred deep link) is lost.
(function () {
  'use strict';

  var button = document.getElementById('biqli-continue');
  if (!button) return;
  var status = document.getElementById('biqli-status');

  // Test hook and debugging aid: how the last copy went ("clipboard", "fallback", "failed").
  function mark(how) {
    document.documentElement.setAttribute('data-biqli-copy', how);
    if ((how === 'clipboard' || how === 'fallback') && status) status.textContent = status.getAttribute('data-copied') || '';
  }

  // The pre-Clipboard-API way: a focused, selected, read-only textarea kept off screen
  // (read-only keeps the iOS keyboard away; 16px text keeps iOS from zooming).
  function legacyCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.setAttribute('aria-hidden', 'true');
    area.setAttribute('tabindex', '-1');
    area.className = 'biqli-offscreen';
    document.body.appendChild(area);
    var copied = false;
    try {
      area.focus();
      area.select();
      area.setSelectionRange(0, text.length);
      copied = document.execCommand('copy');
    } catch (e) {
      copied = false;
    }
    document.body.removeChild(area);
    try { button.focus(); } catch (e) { /* focus is cosmetic */ }
    return copied;
  }

  button.addEventListener('click', function (event) {
    var handoff = button.getAttribute('data-handoff');
    var store = button.getAttribute('href');
    if (!handoff || !store) return; // let the plain link do its job
    event.preventDefault();

    var left = false;
    function leave(how) {
      if (left) return;
      left = true;
      mark(how);
      window.location.href = store;
    }

    // First statement with an effect: the asynchronous Clipboard API, called synchronously inside
    // the tap so that Safari still sees the user activation: nothing asynchronous runs before it.
    var pending = null;
    try {
      if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
        pending = navigator.clipboard.writeText(handoff);
      }
    } catch (e) {
      pending = null;
    }

    if (pending && typeof pending.then === 'function') {
      pending.then(
        function () { leave('clipboard'); },
        function () { leave(legacyCopy(handoff) ? 'fallback' : 'failed'); }
      );
      // Never strand the visitor on this page if the promise does not settle; the fallback may
      // still work while the browser counts the tap as recent.
      window.setTimeout(function () {
        if (!left) leave(legacyCopy(handoff) ? 'fallback' : 'timeout');
      }, 1500);
    } else {
      leave(legacyCopy(handoff) ? 'fallback' : 'failed');
    }
  });
})();
