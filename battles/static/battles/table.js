/* The battle page's script (battles/templates/battles/battle_detail.html), a static file: the CSP
   allows no inline script. What it needs comes in data- attributes: #battle (the live URL, the
   heads, the translated «recorded»), #offline (the worker, the battle, the player, the words of the
   offline banner and queue). Without JavaScript the page works the same by reloading.

   Live updates: swap the state and log regions in place when the log moves (the server holds
   the request until then where it can, else the page asks every second). The recording forms
   are swapped too, so their choices and their expected head follow the battle (no 409 to read), carrying over what
   the player typed, what he opened and where his cursor was; a select he has
   open is left alone until he leaves it.

   Offline (issue 30, docs/offline.md): a service worker keeps the page and its static files; the
   entries recorded without a network wait in IndexedDB, each with its key (the form's ``token``)
   and the head it expects, and are sent in order when the network returns. */
(function () {
  "use strict";
  var root = document.getElementById("battle");
  if (!root || !window.fetch) return;
  var record = document.getElementById("record-region");
  var off = document.getElementById("offline");  // the banner, and the offline words
  var words = off ? off.dataset : {};
  var pending = null;
  function swap(id, html) {
    var el = document.getElementById(id);
    if (el && html !== undefined) el.innerHTML = html;
  }
  var KEEP = /^(csrfmiddlewaretoken|token|expected_seq|form)$/;
  function typed(region, skip) {
    var out = {}, open = [];
    region.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
      if (el.type === "hidden" || KEEP.test(el.name)) return;
      if (skip && el.closest("#rec-" + skip)) return;  // the server's copy holds what was typed in it
      if (el.type === "checkbox" || el.type === "radio") { if (el.checked) (out[el.name] = out[el.name] || []).push(el.value); }
      else if (el.value !== el.defaultValue || (el.tagName === "SELECT" && el.dataset.touched)) out[el.name] = el.value;
    });
    region.querySelectorAll("details[id][open]").forEach(function (d) { open.push(d.id); });
    return {values: out, open: open};
  }
  function carry(region, html, skip) {
    var a = document.activeElement, focus = null;
    if (a && region.contains(a) && a.name) {
      focus = {name: a.name, start: a.selectionStart, end: a.selectionEnd};
    }
    var kept = typed(region, skip);
    region.innerHTML = html;
    Object.keys(kept.values).forEach(function (name) {
      region.querySelectorAll("[name='" + name.replace(/'/g, "") + "']").forEach(function (el) {
        var v = kept.values[name];
        if (el.type === "checkbox" || el.type === "radio") el.checked = v.indexOf(el.value) >= 0;
        else if (el.tagName !== "SELECT" || el.querySelector("option[value='" + String(v).replace(/'/g, "") + "']")) {
          el.value = v;
          if (el.tagName === "SELECT") el.dataset.touched = "1";
        }
      });
    });
    kept.open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    if (focus) {
      var f = region.querySelector("[name='" + focus.name.replace(/'/g, "") + "']");
      if (f) {
        f.focus({preventScroll: true});
        try { if (focus.start !== null && focus.start !== undefined) f.setSelectionRange(focus.start, focus.end); } catch (e) {}
      }
    }
  }
  function updateRecord(html, skip) {
    if (!record || html === undefined) return;
    var a = document.activeElement;
    if (!skip && a && a.tagName === "SELECT" && record.contains(a)) { pending = html; return; }  // its list may be open
    pending = null;
    carry(record, html, skip);
    diceOffline();
  }
  if (record) {
    record.addEventListener("change", function (ev) { if (ev.target.tagName === "SELECT") ev.target.dataset.touched = "1"; });
    record.addEventListener("focusout", function () {
      setTimeout(function () { if (pending !== null) updateRecord(pending); }, 0);
    });
  }
  /* A live answer's log tail: chapters holding the lines this page lacks or showed without their
     outcome. A line it holds is replaced; a new one goes to the end of its chapter, or a new chapter. */
  function mergeLog(html) {
    var region = document.getElementById("log-region"), tail = document.createElement("div");
    tail.innerHTML = html;
    tail.querySelectorAll("section.chapter").forEach(function (chapter) {
      var chapters = region.querySelectorAll("section.chapter"), last = chapters[chapters.length - 1];
      if (!last || last.dataset.key !== chapter.dataset.key) {
        last = region.appendChild(chapter.cloneNode(false));  // (a paged log is never merged: no pager below)
        last.appendChild(chapter.querySelector("h3"));
        last.appendChild(document.createElement("ol")).className = "log";
      }
      var list = last.querySelector("ol");
      Array.prototype.slice.call(chapter.querySelectorAll("li[id]")).forEach(function (line) {
        var held = document.getElementById(line.id);
        if (held) held.replaceWith(line); else list.appendChild(line);
      });
    });
  }
  /* ``skip``: a queued entry's form the server sent back refused, with what was typed in it. */
  function apply(d, skip) {
    if (d.changed) {
      swap("state-region", d.state_html);
      swap("report-region", d.report_html);  // the report's counts follow the state
      if (!root.dataset.paged) {
        if (d.log_html !== undefined) swap("log-region", d.log_html);
        else if (d.log_tail !== undefined) mergeLog(d.log_tail);
      }
      updateRecord(d.record_html, skip);
      /* the battle has ended: what the campaign records of it, the game master's proposals, the dice secret */
      swap("results-region", d.results_html);
      swap("proposals-region", d.proposals_html);
      swap("dice-region", d.dice_html);
      if (d.concluded !== undefined) concluding = !d.concluded;
      /* the pre-battle command: another player's roll or the captain's posts (campaign entries); what this
         player was typing in its forms is kept, as in the recording panel */
      var commandRegion = document.getElementById("command-region");
      if (d.command_html !== undefined && commandRegion) {
        carry(commandRegion, d.command_html);
        if (d.command_seq === null) delete root.dataset.command; else root.dataset.command = d.command_seq;
      }
    }
    root.dataset.head = d.head_seq;
    root.dataset.state = d.state_seq;
    if (d.changed) remember();
  }
  var timer = null, asking = false, waitingSince = 0, waited = false;
  /* An ended battle whose results the campaign has not recorded yet (a worker concludes it just after
     the replay): the regions are asked for again until they come, every 2 s for the first minute, then
     every 15 s (a worker held up or restarted: the page never needs a reload to show them). */
  var concluding = root.dataset.concluding === "1", concludingAsks = 0;
  function poll() {
    timer = null;
    asking = true;
    /* After an entry of this page's own, the regions are asked for once the worker has told its
       outcome (the state reaches the head); if that takes over 3 s, as they are. */
    var force = (waitingSince && Date.now() - waitingSince > 3000) || concluding;
    if (concluding) concludingAsks += 1;
    var url = root.dataset.live + "?since=" + (force ? "-1" : root.dataset.head) + "&state=" + root.dataset.state;
    /* A page with the command forms says how many command entries it shows: another player's roll moves no
       head, so the server cannot wait for it, and the page asks every second instead. */
    var commanding = root.dataset.command !== undefined;
    if (commanding) url += "&command=" + root.dataset.command;
    /* Where the server lets it (data-wait), the request waits there until the battle moves: the
       next one leaves as soon as it is answered. */
    var waits = root.dataset.wait && !document.hidden && !force && !commanding, sent = Date.now();
    if (waits) url += "&wait=" + root.dataset.wait;
    waited = false;
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        reached();
        if (!d) return;
        waited = waits && (d.changed || Date.now() - sent > 1000);
        var mine = d.changed && waitingSince;
        if (d.changed) waitingSince = 0;
        apply(d);
        /* the player's own entry with its outcome: the panel opens at his last entry, the forms below */
        if (mine && document.getElementById("record")) document.getElementById("record").scrollIntoView();
        if (queue.length) flush();
      }, lost)
      .catch(function () {})
      .then(function () { asking = false; timer = setTimeout(poll, delay()); });
  }
  function askSoon() { if (!asking) { clearTimeout(timer); timer = setTimeout(poll, 300); } }
  /* The recording forms are sent by the script: the page stays where the player is. A stored entry
     answers its seq (the page says «recorded» until the regions bring its outcome); a refused one
     answers the regions with the form, what was typed and the reason. Without fetch, the plain POST.
     Without a network (or while entries wait: they go in order), a recording form's entry joins the
     queue; the other forms (take back) need the network. */
  if (record) record.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.method.toLowerCase() !== "post") return;
    ev.preventDefault();
    var body = new FormData(form);
    if (ev.submitter && ev.submitter.name) body.append(ev.submitter.name, ev.submitter.value);
    var entry = body.get("form") && body.get("token");
    /* what the page shows: a refusal then answers only the log lines it lacks */
    body.append("shown_since", root.dataset.head);
    body.append("shown_state", root.dataset.state);
    if (entry && (offline() || queue.length)) { enqueue(form, body, false); return; }
    if (!entry && offline()) { say(form, words.needsNetwork); return; }
    record.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    record.setAttribute("aria-busy", "true");
    fetch(form.action, {method: "POST", body: body, credentials: "same-origin",
                        headers: {"Accept": "application/json", "X-Requested-With": "fetch"}})
      .then(function (r) {
        reached();
        return r.json().catch(function () { form.submit(); return null; });
      }, function (err) {
        /* No answer: the entry may or may not be stored. It waits with the key it was sent with,
           so sending it again is answered as stored if it was (docs/offline.md). */
        record.removeAttribute("aria-busy");
        record.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        lost();
        if (entry) enqueue(form, body, true); else form.submit();
        return null;
      })
      .then(function (d) {
        if (!d) return;
        record.removeAttribute("aria-busy");
        if (d.recorded) {
          form.reset();  // sent: what was typed in it is not carried into the next forms
          form.querySelectorAll("select").forEach(function (el) { delete el.dataset.touched; });
          root.dataset.head = d.head_seq;
          waitingSince = Date.now();
          var note = document.createElement("p");
          note.className = "notice";
          note.setAttribute("role", "status");
          note.id = "recorded-note";
          note.textContent = "№" + d.recorded + ". " + root.dataset.recorded;
          var old = document.getElementById("recorded-note");
          if (old) old.remove();
          form.parentNode.insertBefore(note, form);
          record.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        } else {
          apply(d);
          var err = record.querySelector("[role=alert], .errorlist");
          if (err) err.scrollIntoView({block: "nearest"});
        }
        askSoon();
      });
  });
  /* Where the server waits (data-wait): again as soon as an answer came, the server holding the
     request until the battle moves (with the new entry's outcome). Elsewhere every second while the
     page is in view: an answer that nothing moved is one query, no render
     (battles.table.views.battle_live), so the other player's entry shows within about a second;
     while the state lags behind the log (a worker is replaying what was just recorded) every
     500 ms, a few times. In a hidden tab every 15 s, without waiting, and at once when it is
     shown again. */
  var quick = 0;
  function delay() {
    if (document.hidden) return 15000;
    if (concluding && concludingAsks < 30) return 2000;
    if (concluding) return 15000;
    if (waited) return 0;
    if (root.dataset.state !== root.dataset.head && quick < 20) { quick += 1; return 500; }
    if (root.dataset.state === root.dataset.head) quick = 0;
    return 1000;
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || asking) return;
    clearTimeout(timer);
    poll();
  });

  /* --- offline ------------------------------------------------------------------------------------
     The network is taken as lost when the browser says so or a request to the server failed, and as
     back when a request reached it. */
  var battle = words.battle || "", who = words.who || "", down = false;
  var queue = [];  // the waiting entries of this battle and player, oldest first (IndexedDB's copy)
  var flushing = false, movedNote = "";
  function offline() { return down || navigator.onLine === false; }
  function lost() { if (!down) { down = true; render(); diceOffline(); } }
  function reached() {
    try { localStorage.setItem(syncKey(), String(Date.now())); } catch (e) {}
    if (down) { down = false; render(); diceOffline(); }
  }
  function syncKey() { return "shtab-synced:" + battle + ":" + who; }
  function lastSynced() {
    var t = Number(words.rendered || 0) * 1000;
    try { t = Math.max(t, Number(localStorage.getItem(syncKey()) || 0)); } catch (e) {}
    return t;
  }
  function fmt(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (m, k) { return values[k]; });
  }
  function clock(ms) {
    var d = new Date(ms), lang = document.documentElement.lang || undefined;
    var same = d.toDateString() === new Date().toDateString();
    return same ? d.toLocaleTimeString(lang) : d.toLocaleString(lang);
  }
  function say(form, text) {
    var p = form.querySelector(".offline-note") || form.insertBefore(document.createElement("p"), form.firstChild);
    p.className = "offline-note refusal";
    p.setAttribute("role", "alert");
    p.textContent = text;
  }

  /* IndexedDB: "waiting" (the queue; an entry: battle, who, key, expected, form, action, fields,
     title, summary, status, rule, message) and "pages" (the regions as last synced, per battle). */
  var dbp = null;
  function db() {
    if (!dbp) dbp = new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var req = indexedDB.open("shtab-table", 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore("waiting", {keyPath: "id", autoIncrement: true});
        req.result.createObjectStore("pages", {keyPath: "page"});
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
    return dbp;
  }
  function store(name, mode, act) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction(name, mode), out = act(tx.objectStore(name));
        tx.oncomplete = function () { resolve(out && out.result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  function saveEntry(e) {
    return store("waiting", "readwrite", function (s) { return s.put(e); }).then(function (id) { e.id = id; return e; });
  }
  function dropEntry(e) { return store("waiting", "readwrite", function (s) { return s.delete(e.id); }); }
  function loadQueue() {
    return store("waiting", "readonly", function (s) { return s.getAll(); }).then(function (all) {
      queue = (all || []).filter(function (e) { return e.battle === battle && e.who === who; })
        .sort(function (a, b) { return a.id - b.id; });
    });
  }
  var page = battle + ":" + who;
  function remember() {  // the regions as now shown: what the page opens with offline
    if (!battle || root.dataset.paged) return;
    var snap = {page: page, head: Number(root.dataset.head), state: Number(root.dataset.state), at: Date.now(),
                state_html: document.getElementById("state-region").innerHTML,
                report_html: (document.getElementById("report-region") || {}).innerHTML,
                results_html: (document.getElementById("results-region") || {}).innerHTML,
                dice_html: (document.getElementById("dice-region") || {}).innerHTML,
                log_html: document.getElementById("log-region").innerHTML,
                record_html: record ? record.innerHTML : ""};
    store("pages", "readwrite", function (s) { return s.put(snap); }).catch(function () {});
  }
  function restore() {  // a page from the worker's cache older than the regions last seen: show those
    return store("pages", "readonly", function (s) { return s.get(page); }).then(function (snap) {
      if (!snap || snap.head <= Number(root.dataset.head) || root.dataset.paged) return;
      swap("state-region", snap.state_html);
      swap("report-region", snap.report_html);
      swap("results-region", snap.results_html);  // (undefined in a snapshot from before they were kept)
      swap("dice-region", snap.dice_html);
      swap("log-region", snap.log_html);
      if (record && snap.record_html) record.innerHTML = snap.record_html;
      root.dataset.head = snap.head;
      root.dataset.state = snap.state;
    });
  }

  /* The player's entry from its form: the fields as sent (not the CSRF token: the page's own is
     added when it goes), a key of its own, the head the form was built at, and a line for the log. */
  function token() {
    var b = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(b);
    return "off-" + Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }
  function describe(form) {
    var holder = form.closest("section[id^='rec-'], details[id^='rec-']");
    var heading = holder && holder.querySelector("h3, summary");
    var parts = [];
    form.querySelectorAll("select[name], input[name], textarea[name]").forEach(function (el) {
      if (el.type === "hidden" || el.disabled) return;
      var label = el.closest("label"), name = label && label.firstChild && label.firstChild.nodeType === 3
        ? label.firstChild.nodeValue.trim() : "";
      if (el.tagName === "SELECT") {
        var o = el.options[el.selectedIndex];
        if (o && o.value && !el.classList.contains("die-source")) parts.push(o.textContent.trim());
      } else if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked && label) parts.push(label.textContent.trim());
      } else if (el.value) parts.push((name ? name + ": " : "") + el.value);
    });
    return {title: heading ? heading.textContent.trim() : "", summary: parts.join(", ")};
  }
  function serviceDie(body) {
    var found = false;
    body.forEach(function (v, k) { if (/__source$/.test(k) && v === "rolled") found = true; });
    return found;
  }
  function enqueue(form, body, sent) {
    if (!sent && serviceDie(body)) { say(form, words.diceOffline); return; }  // (the selects offer none offline)
    var fields = [];
    body.forEach(function (v, k) { if (k !== "csrfmiddlewaretoken" && typeof v === "string") fields.push([k, v]); });
    var head = queue[0], text = describe(form);
    var e = {battle: battle, who: who, form: body.get("form"), action: form.action, fields: fields,
             key: sent ? String(body.get("token")) : token(), expected: Number(body.get("expected_seq")),
             title: text.title, summary: text.summary, status: "waiting", at: Date.now()};
    if (head && head.status === "refused" && head.form === e.form) {
      e.id = head.id;  // the refused entry, corrected: it keeps its place, at the head of the queue
      e.key = token();
    }
    setKey(e);
    /* The form is cleared at once, not when the entry is saved: a quick player may already be filling it
       for the next entry while IndexedDB writes this one, and that must not be wiped. */
    form.reset();
    form.querySelectorAll("select").forEach(function (el) { delete el.dataset.touched; });
    var note = form.querySelector(".offline-note");
    if (note) note.remove();
    form.querySelectorAll(".refusal, .errorlist").forEach(function (el) { el.remove(); });
    diceOffline();
    saveEntry(e).then(function () {
      if (e.id === (head && head.id)) queue[0] = e; else queue.push(e);
      render();
      if (!offline()) flush();
    }, function () { postPlain(form.action, body); });  // no IndexedDB (a private window): the plain POST
  }
  /* What was sent, as a plain POST (the form itself was cleared for the next entry). */
  function postPlain(action, body) {
    var f = document.createElement("form");
    f.method = "post";
    f.action = action;
    f.hidden = true;
    body.forEach(function (v, k) {
      if (typeof v !== "string") return;
      var input = f.appendChild(document.createElement("input"));
      input.type = "hidden";
      input.name = k;
      input.value = v;
    });
    document.body.appendChild(f);
    f.submit();
  }
  function setKey(e) {
    e.fields = e.fields.filter(function (kv) { return kv[0] !== "token"; });
    e.fields.push(["token", e.key]);
  }

  /* Sending the queue, in order, each entry with its key and the head it expects (docs/offline.md):
     - stored (``recorded``; ``already`` when the key was stored before the drop): the next entries
       that expected the head this one was sent at now expect the head after it;
     - 409 with a head other than the one sent: another entry reached the log meanwhile; the fresh
       regions are shown first, then the entry goes again against the new head, so the engine
       decides it against the new state;
     - any other refusal stops the queue: the entry is marked with its rule ID and the server's form
       with what was typed and the reason is shown, to correct or drop; the entries after it wait;
     - no answer, or a server error: the queue waits for the network. */
  function csrf() {
    var el = document.querySelector("input[name=csrfmiddlewaretoken]");
    return el ? el.value : "";
  }
  function flush() {
    if (flushing || !queue.length || queue[0].status !== "waiting" || offline()) return;
    flushing = true;
    render();
    var rebased = 0;
    function done() { flushing = false; render(); askSoon(); }
    function next() {
      var e = queue[0];
      if (!e || e.status !== "waiting") { done(); return; }
      var body = new FormData(), sentAt = e.expected;
      e.fields.forEach(function (kv) {
        if (kv[0] !== "expected_seq" && kv[0] !== "shown_since" && kv[0] !== "shown_state") body.append(kv[0], kv[1]);
      });
      body.append("expected_seq", String(sentAt));
      body.append("shown_since", root.dataset.head);
      body.append("shown_state", root.dataset.state);
      body.append("csrfmiddlewaretoken", csrf());
      fetch(e.action, {method: "POST", body: body, credentials: "same-origin",
                       headers: {"Accept": "application/json", "X-Requested-With": "fetch"}})
        .then(function (r) {
          reached();
          return r.json().then(function (d) { return {status: r.status, d: d}; },
                               function () { return {status: r.status, d: null}; });
        })
        .then(function (a) {
          var d = a.d;
          if (d && d.recorded) {
            queue.shift();
            queue.forEach(function (o) { if (o.expected <= sentAt) { o.expected = d.head_seq; saveEntry(o); } });
            rebased = 0;
            if (Number(d.head_seq) > Number(root.dataset.head)) root.dataset.head = d.head_seq;
            waitingSince = Date.now();
            return dropEntry(e).then(function () { render(); next(); });
          }
          if (a.status === 409 && d && d.head_seq !== undefined && Number(d.head_seq) !== sentAt && rebased < 3) {
            apply(d);  // the player sees the new state before his entry goes against it
            movedNote = fmt(words.moved, {old: sentAt, "new": d.head_seq});
            rebased += 1;
            e.expected = Number(d.head_seq);
            return saveEntry(e).then(function () { render(); next(); });
          }
          if (a.status >= 500 || a.status === 0) { done(); return; }
          if (d) apply(d, e.form);
          var shown = record && record.querySelector("#rec-" + e.form + " [role=alert], #rec-" + e.form + " .errorlist");
          var rule = shown && shown.querySelector("strong");
          e.status = "refused";
          e.rule = rule ? rule.textContent.trim() : "";
          e.message = shown ? shown.textContent.replace(e.rule, "").trim() : fmt(words.refusedHttp, {status: a.status});
          return saveEntry(e).then(function () {
            done();
            var holder = document.getElementById("rec-" + e.form);
            if (holder) {
              if (holder.tagName === "DETAILS") holder.open = true;
              holder.scrollIntoView({block: "nearest"});
            }
          });
        }, function () { lost(); done(); });
    }
    next();
  }

  /* What the player sees of it: a banner (offline since the last sync; how many entries wait; a
     refused one) and the waiting entries below the log, in order, marked «ждёт отправки». */
  function render() {
    if (!off) return;
    var list = document.getElementById("offline-waiting");
    var lines = [];
    if (offline()) lines.push(fmt(words.offline, {time: clock(lastSynced())}));
    var waiting = queue.filter(function (e) { return e.status === "waiting"; }).length;
    var refused = queue.filter(function (e) { return e.status === "refused"; })[0];
    if (refused) lines.push(fmt(words.refused, {rule: refused.rule || "—", n: waiting}));
    else if (waiting) lines.push(fmt(flushing ? words.sending : words.count, {n: waiting}));
    if (movedNote && (queue.length || flushing)) lines.push(movedNote);
    if (!queue.length && !flushing) movedNote = "";
    off.hidden = !lines.length;
    off.className = "offline-banner" + (offline() ? " is-offline" : "") + (refused ? " is-refused" : "");
    off.textContent = "";
    lines.forEach(function (t) { off.appendChild(document.createElement("p")).textContent = t; });
    off.dataset.queued = String(waiting);
    if (!list) return;
    list.textContent = "";
    list.hidden = !queue.length;
    queue.forEach(function (e) {
      var li = list.appendChild(document.createElement("li"));
      li.className = "waiting-entry " + e.status;
      li.dataset.key = e.key;
      var badge = li.appendChild(document.createElement("span"));
      badge.className = "badge";
      badge.textContent = e.status === "refused" ? words.refusedBadge : words.waiting;
      li.appendChild(document.createTextNode(" " + e.title + (e.summary ? ": " + e.summary : "")));
      if (e.status === "refused") {
        var why = li.appendChild(document.createElement("p"));
        why.className = "refusal";
        if (e.rule) why.appendChild(document.createElement("strong")).textContent = e.rule;
        why.appendChild(document.createTextNode((e.rule ? " " : "") + (e.message || "")));
        var drop = li.appendChild(document.createElement("button"));
        drop.type = "button";
        drop.className = "secondary";
        drop.textContent = words.drop;
        drop.addEventListener("click", function () {
          dropEntry(e).then(function () {
            queue = queue.filter(function (o) { return o !== e; });
            render();
            flush();
          });
        });
      }
    });
  }

  /* Service-rolled dice need the server: offline, a die's select offers only the die entered from the
     table (the select says why), and goes back to the service's roll when the network returns. */
  function diceOffline() {
    if (!record) return;
    var now = offline();
    record.querySelectorAll("select.die-source").forEach(function (sel) {
      var rolled = sel.querySelector("option[value=rolled]");
      if (!rolled) return;
      rolled.disabled = now;
      if (now && sel.value === "rolled") { sel.value = "entered"; sel.dataset.offlineSwitched = "1"; }
      else if (!now && sel.dataset.offlineSwitched) {
        delete sel.dataset.offlineSwitched;
        if (sel.value === "entered") sel.value = "rolled";
      }
      var label = sel.closest("label") || sel.parentNode, note = label.nextElementSibling;
      var has = note && note.classList.contains("offline-dice");
      if (now && !has) {
        note = document.createElement("small");
        note.className = "offline-dice";
        note.textContent = words.diceOffline;
        label.parentNode.insertBefore(note, label.nextSibling);
      } else if (!now && has) note.remove();
    });
  }

  window.addEventListener("online", function () {
    down = false;
    render();
    diceOffline();
    if (!asking) { clearTimeout(timer); poll(); }  // its answer sends the queue
  });
  window.addEventListener("offline", function () { lost(); });

  /* The worker (battles/static/battles/sw.js, served at the scope it controls): on its first
     install it is handed the page and the files this page loaded, which it could not see. */
  if (words.worker && navigator.serviceWorker) {
    var first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(words.worker, {scope: words.worker.replace(/[^/]*$/, "")}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      if (!first || !reg.active) return;
      var urls = [location.pathname];
      document.querySelectorAll("script[src], link[href][rel~=stylesheet], link[href][rel~=icon], link[href][rel=manifest]")
        .forEach(function (el) { urls.push(el.src || el.href); });
      reg.active.postMessage({cache: urls});
    }).catch(function () {});
  }

  /* «Выйти» makes the browser forget this site (Clear-Site-Data, docs/offline.md): the entries still
     waiting on the device would go with it, so the player is asked first. */
  document.querySelectorAll("header form.inline").forEach(function (f) {
    f.addEventListener("submit", function (ev) {
      if (queue.length && !window.confirm(fmt(words.logoutWaiting, {n: queue.length}))) ev.preventDefault();
    });
  });

  var start = function () { diceOffline(); render(); timer = setTimeout(poll, offline() ? 0 : delay()); };
  if (!battle) { start(); return; }
  restore().catch(function () {}).then(function () {
    return loadQueue().catch(function () {});
  }).then(function () {
    if (!offline()) remember();
    start();
  });
})();
