// The book's own page script, inline in every page's head (a few hundred bytes, no request).
// sphinx-togglebutton makes a solution's whole title a toggle, but its click handler knows only
// the title, its button and the button's icon: a click on anything else in the title (the
// "Exercise N" link of a solution's title) threw "button is not defined". A link in the title
// goes where it points; a click on other text in it toggles the box, as a click on the title does.
document.addEventListener('click', function (e) {
  var t = e.target, title = t.closest && t.closest('.admonition.dropdown > .admonition-title');
  if (!title || t === title) return;
  var button = t.closest('button.toggle-button');
  if (button && (t === button || t.tagName === 'polyline' || (t.classList && t.classList.contains('tb-icon')))) return;
  e.stopPropagation();
  if (!t.closest('a')) title.click();
}, true);
// Charts draw when they come near the screen (one screen ahead, once the whole page is parsed: while a slow
// link still streams it, every chart is near the end of what has come): the chart runtime (Vega and charts.js,
// 500 KB, at window.db2bookRuntime: book/_ext/offline_assets.py) loads with the first of them, so a phone
// paints the text first and spends nothing on charts its reader has not scrolled to. Each chart's call
// (widgets/render.py writes one per chart) waits here until then. A chart's spec is inert JSON on the page
// (a script block of type application/json, the chart's id plus "-spec"): the browser does not compile it as
// script while the page loads; it is parsed here, with JSON.parse, only when its chart draws.
// db2bookDrawAll() draws every chart now (before printing; the browser tests call it to see them all).
(function () {
  if (window.db2bookEmbed) return;
  var waiting = {}, observer = null, loading = null;
  function runtime() {
    loading = loading || new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = window.db2bookRuntime;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('the chart runtime did not load: ' + s.src)); };
      document.head.appendChild(s);
    });
    return loading;
  }
  function draw(id) {
    var args = waiting[id], el = document.getElementById(id);
    if (!args) return;
    delete waiting[id];
    if (observer && el) observer.unobserve(el);
    runtime().then(function () {
      var block = document.getElementById(id + '-spec');
      var spec;
      try {
        spec = JSON.parse(block.textContent);
      } catch (err) {
        if (el) el.textContent = 'This chart could not be drawn: its spec did not parse (' + err.message + ')';
        console.error(err);
        return;
      }
      window.db2bookDraw(id, spec, args[1]);
    }, function (err) {
      if (el) el.textContent = 'This chart could not be drawn: ' + err.message;
      console.error(err);
    });
  }
  function watch(id) {
    var el = document.getElementById(id);
    if (!el || !('IntersectionObserver' in window)) { draw(id); return; }
    observer = observer || new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) draw(e.target.id); });
    }, {rootMargin: '100% 0px'});
    observer.observe(el);
  }
  window.db2bookEmbed = function (id, offStep) {
    waiting[id] = [id, offStep];
    if (document.readyState !== 'loading') { watch(id); return; }
    document.addEventListener('DOMContentLoaded', function () { watch(id); });
  };
  window.db2bookDrawAll = function () { Object.keys(waiting).forEach(draw); };
  window.addEventListener('beforeprint', window.db2bookDrawAll);
})();
