// The portal's only script of its own (htmx does the rest). Loaded as a file: the
// Content-Security-Policy allows no inline script.
"use strict";

// The person's time zone, for the times the server writes (portal/web.py: Fuso). IANA names
// ("America/Manaus") are valid cookie values as they are.
try {
  var zona = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zona && !document.cookie.split("; ").includes("fuso=" + zona)) {
    document.cookie = "fuso=" + zona + "; path=/; max-age=31536000; samesite=lax";
  }
} catch (e) { /* an old browser: the default zone stays, named on the page */ }

// Without this script every section stays listed; with it, phones fold them behind the menu button.
document.documentElement.classList.add("js");
document.addEventListener("click", function (event) {
  var toggle = event.target.closest(".menu-toggle");
  if (!toggle) return;
  var open = toggle.getAttribute("aria-expanded") !== "true";
  toggle.setAttribute("aria-expanded", String(open));
  toggle.closest(".portal-nav").classList.toggle("aberto", open);
});

// Copy buttons: <button data-copy="ID"> copies the value of the element with that id.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.dataset.copy);
  var status = document.getElementById(button.dataset.copy + "-status");
  var text = "value" in source ? source.value : source.textContent;
  function done(ok) {
    if (status) status.textContent = ok ? "Copiado para a área de transferência." : "Não foi possível copiar: selecione e copie manualmente.";
  }
  function fallback() {
    // Without the Clipboard API (plain http off localhost): select the text and copy it. A field
    // selects itself; any other element (a <pre>) by a range over its contents.
    if (typeof source.select === "function") {
      source.focus();
      source.select();
    } else {
      var range = document.createRange();
      range.selectNodeContents(source);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
    }
    try { done(document.execCommand("copy")); } catch (e) { done(false); }
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
  } else {
    fallback();
  }
});

// Selecting the whole key on focus makes a manual copy one keystroke away.
document.addEventListener("focusin", function (event) {
  if (event.target.matches && event.target.matches("input[data-select-on-focus]")) event.target.select();
});

// Where the page wants the person's attention: a value just created (data-foco), else the first
// field refused by the server, else the form's error message. Keyboard and screen-reader users
// start there instead of at the top of the page.
(function () {
  var alvo = document.querySelector("[data-foco]") || document.querySelector("main [aria-invalid='true']");
  if (!alvo) {
    alvo = document.querySelector("main .notice.bad[role='alert']");
    if (alvo) alvo.setAttribute("tabindex", "-1");
  }
  if (alvo) alvo.focus();
})();
