/* The book's dashboards under faults: a banner that says in words what happened and what to do.
 *
 * Voila's page talks to the dashboard's Python process (its kernel) over one WebSocket. This script watches
 * that socket from outside Voila's code (it wraps window.WebSocket before Voila's scripts load):
 *  - the server reports the kernel "restarting" or "dead" (it was killed, crashed or ran out of memory; the
 *    server starts an empty one, which no longer holds the dashboard): the kernel banner;
 *  - the socket closes while the page is open: the page asks the server for its kernel; no answer means the
 *    server is gone (the server banner), and the page keeps asking every 2 s until it answers, then says so;
 *    an answer without the kernel means the kernel is gone (the kernel banner).
 * Without this, each control shows a broken-link icon and nothing says why. The banner is #db2book-fault;
 * its data-fault attribute ("kernel", "server", "server-back") is what the tests read.
 */
(function () {
  "use strict";
  var Native = window.WebSocket;
  if (!Native || window.db2bookFaults) { return; }
  var CHANNELS = /\/api\/kernels\/([0-9a-fA-F-]{36})\/channels/;
  var TEXT = {
    kernel: ["This dashboard lost its Python process.",
             "It stopped (it may have run out of memory). Reload the page to get a fresh one; your slider " +
             "settings will reset."],
    server: ["This dashboard lost its server.",
             "The server stopped (your teacher may be restarting it). Wait until this message says it is back, " +
             "then reload the page; your slider settings will reset."],
    "server-back": ["The dashboard's server is back.",
                    "Reload the page to continue; your slider settings will reset."]
  };
  var state = { leaving: false, fault: null, kernelId: null, polling: false };
  window.db2bookFaults = state;
  window.addEventListener("pagehide", function () { state.leaving = true; });
  window.addEventListener("beforeunload", function () { state.leaving = true; });

  function show(fault, via) {
    if (state.leaving || state.fault === fault) { return; }
    // once the server was lost, its kernels went with it: a kernel reported gone after that is the same
    // fault, and the words that fit are the server's ("it is back: reload"), not "the Python process stopped"
    if (fault === "kernel" && (state.fault === "server" || state.fault === "server-back")) { return; }
    state.fault = fault;
    state.via = via;
    state.shownAt = Date.now();
    var box = document.getElementById("db2book-fault");
    if (!box) {
      box = document.createElement("div");
      box.id = "db2book-fault";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:sticky;top:0;z-index:10000;padding:14px 20px;" +
        "background:#fff4ce;color:#1f1f1f;border-bottom:3px solid #b35900;font:16px/1.4 system-ui,sans-serif;" +
        "box-shadow:0 2px 8px rgba(0,0,0,.25)";
      var style = document.createElement("style");
      style.textContent = "body.db2book-lost #rendered_cells{opacity:.35;pointer-events:none}" +
        "body.db2book-lost .jupyter-widgets-disconnected::before{display:none!important}";
      document.head.appendChild(style);
      document.body.insertBefore(box, document.body.firstChild);
    }
    document.body.classList.add("db2book-lost");
    box.setAttribute("data-fault", fault);
    box.innerHTML = "";
    var title = document.createElement("strong");
    title.textContent = TEXT[fault][0] + " ";
    var what = document.createElement("span");
    what.textContent = TEXT[fault][1] + " ";
    box.appendChild(title);
    box.appendChild(what);
    if (fault !== "server") {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Reload the page";
      button.style.cssText = "margin-left:8px;font:inherit;padding:4px 12px;cursor:pointer";
      button.addEventListener("click", function () { window.location.reload(); });
      box.appendChild(button);
    }
  }

  function kernelUrl() {
    var base = (document.body && document.body.getAttribute("data-base-url")) || "/voila/";
    return base.replace(/voila\/$/, "") + "api/kernels/" + state.kernelId;
  }

  /* Ask the server about the kernel: no answer, the server is lost (ask again until it answers). */
  function probe() {
    if (state.polling || state.leaving || !state.kernelId) { return; }
    state.polling = true;
    fetch(kernelUrl(), { cache: "no-store" }).then(function (resp) {
      state.polling = false;
      if (state.fault === "server") { show("server-back", "probe"); }
      else if (resp.status === 404) { show("kernel", "probe"); }
    }, function () {
      state.polling = false;
      show("server", "probe");
      setTimeout(probe, 2000);
    });
  }

  /* The execution state of a kernel status message (JSON text, or the v1 binary WebSocket protocol). */
  function statusOf(data) {
    try {
      var header, content;
      if (typeof data === "string") {
        var msg = JSON.parse(data);
        header = msg.header || {};
        content = msg.content || {};
      } else if (data instanceof ArrayBuffer) {
        var view = new DataView(data);
        var n = Number(view.getBigUint64(0, true));
        if (n < 6) { return null; }
        var at = [];
        for (var i = 0; i < n; i++) { at.push(Number(view.getBigUint64(8 * (i + 1), true))); }
        var text = new TextDecoder();
        header = JSON.parse(text.decode(new Uint8Array(data, at[1], at[2] - at[1])));
        if (header.msg_type !== "status") { return null; }
        content = JSON.parse(text.decode(new Uint8Array(data, at[4], at[5] - at[4])));
      } else {
        return null;
      }
      return header.msg_type === "status" ? content.execution_state : null;
    } catch (e) {
      return null;
    }
  }

  function Watched(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    var match = CHANNELS.exec(String(url));
    if (match) {
      state.kernelId = match[1];
      socket.addEventListener("message", function (event) {
        var s = statusOf(event.data);
        if (s === "restarting" || s === "autorestarting" || s === "dead") { show("kernel", "status " + s); }
      });
      socket.addEventListener("close", function () {
        if (!state.leaving) { setTimeout(probe, 300); }
      });
    }
    return socket;
  }
  Watched.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Watched[k] = Native[k]; });
  window.WebSocket = Watched;
})();
