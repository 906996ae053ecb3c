/* Behaviour that used to sit in inline handlers (onchange=, onclick=,
   onsubmit=), which the Content-Security-Policy forbids: declared with data
   attributes and wired here, from a static file.
   data-autosubmit  on a select: submit its form when it changes;
   data-print       on a button: print the page;
   data-confirm     on a form: ask before submitting it;
   data-reveal      on a <details>: once opened, bring its button into view
                    (a phone's bottom bar must not hide «Да, завершить ход»). */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("[data-print]");
    if (el) window.print();
  });
  document.addEventListener("toggle", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("details[data-reveal]") || !el.open) return;
    var button = el.querySelector("button[type=submit]");
    if (button && button.scrollIntoView) button.scrollIntoView({block: "center"});
  }, true);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
