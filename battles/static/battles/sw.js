/* The battle page's service worker (issue 30, docs/offline.md). Served at /battles/sw.js
   (battles.table.offline.service_worker), so its scope is /battles/: it controls the battle pages
   and nothing else of the site.

   - A battle page (/battles/<id>/, no query): the network first, its answer kept; without a
     network, the page as last kept (the page's script then shows the regions it saw last and the
     entries that wait, from IndexedDB).
   - The files a controlled page loads (scripts, styles, images, fonts, the manifest): the copy kept,
     refreshed from the network behind it (their names carry a hash in production).
   - Anything else (the live answers, the recording POSTs, the API): the network, untouched; the
     page's script decides what a missing answer means. */
"use strict";

var CACHE = "shtab-battle-v1";
var PAGE = /^\/battles\/\d+\/$/;
var FILES = ["script", "style", "image", "font", "manifest"];

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("shtab-battle-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

/* The first page the worker was installed from loaded before it could see: the page hands over
   its own URL and its files' URLs to keep. */
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.cache;
  if (!Array.isArray(urls)) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (u) {
      var url = new URL(u, self.location.href);
      if (url.origin !== self.location.origin) return null;
      return fetch(url.href, {credentials: "same-origin"}).then(function (r) {
        return r.ok ? cache.put(url.href, r) : null;
      }).catch(function () { return null; });
    }));
  }));
});

function keep(request, response) {
  if (!response || !response.ok || response.type !== "basic") return response;
  var copy = response.clone();
  caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(fetch(request).then(function (response) {
      return url.search ? response : keep(url.href, response);
    }).catch(function () {
      return caches.match(url.origin + url.pathname, {ignoreVary: true}).then(function (hit) {
        return hit || Response.error();
      });
    }));
    return;
  }
  if (FILES.indexOf(request.destination) >= 0) {
    event.respondWith(caches.match(request, {ignoreVary: true}).then(function (hit) {
      var fresh = fetch(request).then(function (response) { return keep(request, response); });
      if (hit) { fresh.catch(function () {}); return hit; }
      return fresh;
    }));
  }
});
