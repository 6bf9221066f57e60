// The page's side of every chart (book/_ext/offline_assets.py serves it once per site, after the Vega
// runtime): draw a compiled Vega spec into its div, with the book's own tooltip. Each chart on a page
// is its spec as inert JSON and one call, window.db2bookEmbed(id, offStep) (widgets/render.py writes
// them), where offStep names the sliders whose opening value is off their steps; the page script (page.js)
// loads this file when the first chart comes near the screen, then parses each chart's spec and calls
// window.db2bookDraw(id, spec, offStep).
window.db2bookViews = window.db2bookViews || {};
window.db2bookTooltip = window.db2bookTooltip || function (handler, event, item, value) {
  // the chart's tooltip: its fields as a small table beside the pointer (hidden when value is empty)
  var tip = document.getElementById('vg-tooltip-element');
  if (!tip) {
    tip = document.createElement('div');
    tip.id = 'vg-tooltip-element';
    tip.className = 'db2book-tooltip';
    tip.setAttribute('role', 'tooltip');
    document.body.appendChild(tip);
  }
  if (value === null || value === undefined || value === '') { tip.classList.remove('visible'); return; }
  tip.textContent = '';
  var table = document.createElement('table');
  var fields = typeof value === 'object' ? value : {'': value};
  Object.keys(fields).forEach(function (key) {
    var row = table.insertRow();
    var name = row.insertCell(), cell = row.insertCell();
    name.className = 'key'; name.textContent = key;
    cell.className = 'value'; cell.textContent = String(fields[key]);
  });
  tip.appendChild(table);
  tip.classList.add('visible');
  var x = event.clientX + 12, y = event.clientY + 12, box = tip.getBoundingClientRect();
  if (x + box.width > window.innerWidth - 4) x = Math.max(4, event.clientX - box.width - 12);
  if (y + box.height > window.innerHeight - 4) y = Math.max(4, event.clientY - box.height - 12);
  tip.style.left = (x + window.scrollX) + 'px';
  tip.style.top = (y + window.scrollY) + 'px';
};
window.db2bookDraw = function (id, spec, offStep) {
  function go() {
    var el = document.getElementById(id);
    // a legend of one column, labels never cut, on a screen too narrow for three
    var wide = el.clientWidth >= 560;
    spec.config = spec.config || {};
    spec.config.legend = Object.assign({columns: wide ? 3 : 1, labelLimit: Math.max(120, el.clientWidth - 60)},
                                       spec.config.legend || {});
    var view;
    try {
      view = new window.vega.View(window.vega.parse(spec), {renderer: 'svg', container: el, hover: true,
                                                            tooltip: window.db2bookTooltip});
    } catch (err) {
      el.textContent = 'This chart could not be drawn: ' + err;
      console.error(err);
      return;
    }
    view.runAsync().then(function () {
      window.db2bookViews[id] = view;
      // the chart's text alternative: the picture is one image named by its description
      var svg = el.querySelector('svg');
      if (svg && spec.description) {
        svg.setAttribute('role', 'img');
        svg.setAttribute('aria-label', spec.description);
      }
      // a phone has no hover: a tap on a mark replays as a pointer move, which shows its tooltip.
      // It replays on the tap's click, the last event of a tap: the mouse events a browser makes
      // up for a tap come before it, and the one that leaves the chart tapped before hides its tip.
      var touched = false;
      el.addEventListener('pointerdown', function (e) { touched = e.pointerType === 'touch'; });
      el.addEventListener('click', function (e) {
        if (!touched) return;
        ['pointermove', 'mousemove'].forEach(function (type) {
          var Ev = type === 'pointermove' ? PointerEvent : MouseEvent;
          e.target.dispatchEvent(new Ev(type, {bubbles: true, clientX: e.clientX, clientY: e.clientY,
                                               pointerType: 'mouse'}));
        });
      });
      // a calibrated value off the slider's steps can't be reached again by dragging: offer a way back
      // (the page names them: widgets/render.py asks widgets/numbers.py which values are off their grid)
      var off = (spec.signals || []).filter(function (s) { return (offStep || []).indexOf(s.name) >= 0; });
      if (off.length) {
        var reset = document.createElement('button');
        reset.type = 'button';
        reset.className = 'db2book-reset';
        reset.textContent = 'Reset to the calibrated ' + (off.length > 1 ? 'values' : 'value') + ' (' +
          off.map(function (s) { return s.value; }).join(', ') + ')';
        reset.addEventListener('click', function () {
          (spec.signals || []).forEach(function (s) { if (s.bind && s.bind.input === 'range') view.signal(s.name, s.value); });
          view.runAsync();
        });
        el.appendChild(reset);
      }
      el.setAttribute('data-rendered', 'true');
    }).catch(function (err) {
      el.textContent = 'This chart could not be drawn: ' + err;
      console.error(err);
    });
  }
  // each chart in its own task, so that a page stays responsive (and scrolls) while several draw
  setTimeout(go, 0);
};
