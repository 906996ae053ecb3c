/* Behaviour that used to sit in inline handlers (onchange=, onclick=,
   onsubmit=), which the Content-Security-Policy forbids: declared with data
   attributes and wired here, from a static file.
   data-autosubmit  on a select: submit its form when it changes;
   data-print       on a button: print the page;
   data-confirm     on a form: ask before submitting it;
   data-reveal      on a <details>: once opened, bring its button into view
                    (a phone's bottom bar must not hide «Да, завершить ход»);
   data-nav-toggle  the header's «Меню» at phone width: unfolds the site's links
                    (Escape or a click elsewhere folds them again). */
(function () {
  "use strict";
  function fold(header) {
    header.classList.remove("open");
    var toggle = header.querySelector("[data-nav-toggle]");
    if (toggle) toggle.setAttribute("aria-expanded", "false");
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-nav-toggle]");
    var open = document.querySelector("header.open");
    if (toggle) {
      var header = toggle.closest("header");
      var opening = !header.classList.contains("open");
      header.classList.toggle("open", opening);
      toggle.setAttribute("aria-expanded", opening ? "true" : "false");
      if (opening) {
        var first = header.querySelector("nav a, nav button");
        if (first) first.focus();
      }
    } else if (open && !open.contains(event.target)) {
      fold(open);
    }
  });
  document.addEventListener("keydown", function (event) {
    var open = document.querySelector("header.open");
    if (event.key === "Escape" && open) {
      fold(open);
      open.querySelector("[data-nav-toggle]").focus();
    }
  });
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
