(function () {
  'use strict';
  var body = document.body;
  var data = JSON.parse(document.getElementById('study-data').textContent);
  body.dataset.plotsExpected = String(data.expected_plots);
  var drawn = 0;
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];
  var BAR = '#4e79a7';

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function fin(v) { return typeof v === 'number' && isFinite(v); }
  function withUnit(name, unit) { return unit ? name + ' [' + unit + ']' : name; }
  function group(s) {  // thousands separators in the integer part: "12345.0005" -> "12 345.0005"
    var dot = s.indexOf('.'), whole = dot < 0 ? s : s.slice(0, dot);
    return whole.replace(/\B(?=(\d{3})+$)/g, '\u202f') + (dot < 0 ? '' : s.slice(dot));
  }
  // A value for a label or tooltip: 4 significant digits, exponent only when far from 1.
  function fmt(v, sig) {
    if (!fin(v)) return '\u2013';
    if (v === 0) return '0';
    var a = Math.abs(v);
    if (a < 1e-4 || a >= 1e7) return v.toExponential((sig || 4) - 1).replace('e+', 'e');
    var s = String(Number(v.toPrecision(sig || 4)));
    return a >= 1e4 ? group(s) : s;
  }
  function pct(p) { return fin(p) ? fmt(100 * p, 3) + '\u00a0%' : '\u2013'; }
  function count(n) { return group(String(n)); }

  // Axis ticks: a step of 1, 2 or 5 x 10^k, about n of them in [lo, hi]; expand: the domain grows
  // to whole steps (for axes starting at a round number), otherwise it stays [lo, hi].
  function axis(lo, hi, n, expand, integer) {
    if (!(hi > lo)) { var c = fin(lo) ? lo : 0, d = c !== 0 ? Math.abs(c) * 0.1 : 1; lo = c - d; hi = c + d; }
    var raw = (hi - lo) / (n || 5), p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    var step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    if (integer && step < 1) step = 1;
    if (expand) { lo = Math.floor(lo / step + 1e-9) * step; hi = Math.ceil(hi / step - 1e-9) * step; }
    var ticks = [], first = Math.ceil(lo / step - 1e-9);
    for (var i = first; i * step <= hi + step * 1e-9 && ticks.length < 50; ++i) ticks.push(Math.abs(i * step) < step * 1e-9 ? 0 : i * step);
    // very large or small values: labels in units of 10^exp (a power of 1000), "x10^exp" in the title
    var a = Math.max(Math.abs(lo), Math.abs(hi)), exp = 0;
    if (a >= 1e6 || (a > 0 && a < 1e-3)) exp = 3 * Math.floor(Math.log10(a) / 3);
    return {lo: lo, hi: hi, step: step, ticks: ticks, exp: exp};
  }
  function tickLabel(v, ax) {
    if (v === 0) return '0';
    var scale = Math.pow(10, ax.exp), x = v / scale;
    var s = x.toFixed(Math.min(15, Math.max(0, -Math.floor(Math.log10(ax.step / scale) + 1e-9))));
    return Math.abs(x) >= 1e4 ? group(s) : s;
  }
  function axisTitle(title, ax) {
    return esc(title) + (ax.exp ? ' (\u00d710<tspan dy="-4" font-size="8">' + ax.exp + '</tspan>)' : '');
  }

  // A plot: fixed pixel size (text stays 11 px), margins m, axes x and y from axis().
  function Plot(o) {
    this.w = o.w || 440; this.h = o.h || 270;
    this.m = o.m || {l: 62, r: 16, t: 30, b: 44};
    this.x = o.x; this.y = o.y; this.id = o.id; this.parts = [];
    if (o.title) this.parts.push('<text class="title" x="' + this.m.l + '" y="16">' + esc(o.title) + '</text>');
  }
  Plot.prototype.sx = function (v) { return this.m.l + (v - this.x.lo) / (this.x.hi - this.x.lo) * (this.w - this.m.l - this.m.r); };
  Plot.prototype.sy = function (v) { return this.h - this.m.b - (v - this.y.lo) / (this.y.hi - this.y.lo) * (this.h - this.m.t - this.m.b); };
  Plot.prototype.add = function (s) { this.parts.push(s); };
  Plot.prototype.axes = function (xTitle, yTitle, yFormat) {
    var x0 = this.m.l, x1 = this.w - this.m.r, y0 = this.h - this.m.b, y1 = this.m.t, self = this, s = [];
    // every tick gets a grid line; labels are thinned out where they would overlap
    var labels = this.x.ticks.map(function (t) { return tickLabel(t, self.x); });
    var widest = Math.max.apply(null, labels.map(function (l) { return l.length; }).concat([1])) * 6.3 + 10;
    var spacing = this.x.ticks.length > 1 ? Math.abs(this.sx(this.x.ticks[1]) - this.sx(this.x.ticks[0])) : Infinity;
    var every = Math.max(1, Math.ceil(widest / spacing));
    this.x.ticks.forEach(function (t, k) {
      var x = self.sx(t).toFixed(1);
      s.push('<line class="grid" x1="' + x + '" x2="' + x + '" y1="' + y1 + '" y2="' + y0 + '"/>');
      if (k % every) return;
      s.push('<line class="axis" x1="' + x + '" x2="' + x + '" y1="' + y0 + '" y2="' + (y0 + 4) + '"/>');
      s.push('<text x="' + x + '" y="' + (y0 + 16) + '" text-anchor="middle">' + labels[k] + '</text>');
    });
    this.y.ticks.forEach(function (t) {
      var y = self.sy(t).toFixed(1);
      s.push('<line class="grid" x1="' + x0 + '" x2="' + x1 + '" y1="' + y + '" y2="' + y + '"/>');
      s.push('<line class="axis" x1="' + (x0 - 4) + '" x2="' + x0 + '" y1="' + y + '" y2="' + y + '"/>');
      s.push('<text x="' + (x0 - 7) + '" y="' + y + '" dy="0.35em" text-anchor="end">' + (yFormat ? yFormat(t) : tickLabel(t, self.y)) + '</text>');
    });
    s.push('<line class="axis" x1="' + x0 + '" x2="' + x1 + '" y1="' + y0 + '" y2="' + y0 + '"/>');
    s.push('<line class="axis" x1="' + x0 + '" x2="' + x0 + '" y1="' + y1 + '" y2="' + y0 + '"/>');
    s.push('<text class="axis-title" x="' + ((x0 + x1) / 2) + '" y="' + (this.h - 8) + '" text-anchor="middle">' + axisTitle(xTitle, this.x) + '</text>');
    if (yTitle) s.push('<text class="axis-title" transform="translate(13 ' + ((y0 + y1) / 2) + ') rotate(-90)" text-anchor="middle">' + axisTitle(yTitle, this.y) + '</text>');
    this.parts.push(s.join(''));
  };
  Plot.prototype.svg = function () {
    return '<svg class="plot" width="' + this.w + '" height="' + this.h + '" viewBox="0 0 ' + this.w + ' ' + this.h +
      '" data-plot="' + esc(this.id) + '" role="img">' + this.parts.join('') + '</svg>';
  };
  // A path through the points (x, y); a null or non-finite point breaks the line.
  function linePath(plot, xs, ys) {
    var d = [], pen = false;
    for (var i = 0; i < xs.length; ++i) {
      if (!fin(xs[i]) || !fin(ys[i])) { pen = false; continue; }
      d.push((pen ? 'L' : 'M') + plot.sx(xs[i]).toFixed(1) + ' ' + plot.sy(ys[i]).toFixed(1));
      pen = true;
    }
    return d.join('');
  }
  function rect(x, y, w, h, fill, tip) {
    return '<rect class="mark" x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + w.toFixed(1) + '" height="' + h.toFixed(1) +
      '" fill="' + fill + '"><title>' + esc(tip) + '</title></rect>';
  }
  // Legend entries [{label, colour, kind: 'line' | 'box'}] in rows of at most `width` px: the
  // layout first (a plot reserves its height), then the drawing at (x, y).
  var LEGEND_ROW = 16;
  function legendLayout(items, width) {
    var cx = 0, row = 0, at = [];
    items.forEach(function (it) {
      var w = 22 + Math.min(it.label.length, 40) * 6.2 + 14;
      if (cx > 0 && cx + w > width) { cx = 0; ++row; }
      at.push({x: cx, row: row});
      cx += w;
    });
    return {at: at, height: (row + 1) * LEGEND_ROW};
  }
  function legend(plot, items, layout, x, y) {
    items.forEach(function (it, k) {
      var cx = x + layout.at[k].x, cy = y + layout.at[k].row * LEGEND_ROW;
      plot.add(it.kind === 'box'
        ? '<rect x="' + cx + '" y="' + (cy - 5) + '" width="14" height="10" rx="1.5" fill="' + it.colour + '"/>'
        : '<line x1="' + cx + '" x2="' + (cx + 16) + '" y1="' + cy + '" y2="' + cy + '" stroke="' + it.colour + '" stroke-width="2.2"/>');
      var label = it.label.length > 40 ? it.label.slice(0, 39) + '\u2026' : it.label;
      plot.add('<text x="' + (cx + 21) + '" y="' + cy + '" dy="0.35em">' + esc(label) + '</text>');
    });
  }
  // Plot width so that `count` plots of at least minW share a row of the container `into`
  // (text stays 11 px whatever the window; the SVGs only shrink below minW on narrow screens).
  function fitWidth(into, count, minW, maxW) {
    var avail = into.clientWidth || 1200, gap = 18;
    var perRow = Math.max(1, Math.min(count, Math.floor((avail + gap) / (minW + gap))));
    return Math.max(Math.min(minW, avail), Math.min(maxW, Math.floor((avail - gap * (perRow - 1)) / perRow) - 1));
  }

  // Draws one plot into `into`: counted only when it was drawn without error.
  function draw(into, what, make) {
    try {
      into.insertAdjacentHTML('beforeend', '<div>' + make() + '</div>');
      ++drawn;
    } catch (e) {
      body.dataset.error = (body.dataset.error ? body.dataset.error + '; ' : '') + what + ': ' + (e && e.message ? e.message : e);
      into.insertAdjacentHTML('beforeend', '<p class="err">' + esc(what) + ': could not be drawn (' + esc(e && e.message ? e.message : e) + ')</p>');
    }
  }
  function card(container, full, title, caption) {
    var c = document.createElement('div');
    c.className = 'card' + (full ? ' full' : '');
    c.innerHTML = '<h3>' + title + '</h3>' + (caption ? '<div class="caption">' + caption + '</div>' : '') + '<div class="plots"></div>';
    container.appendChild(c);
    return c.querySelector('.plots');
  }
  function titleHtml(name, unit) { return esc(name) + (unit ? ' <span class="unit">[' + esc(unit) + ']</span>' : ''); }

  // ---- metrics: histogram and CDF ----
  function histogram(m, i, w) {
    var h = m.hist, k = h.counts.length, lo = h.lo, hi = h.lo + k * h.width;
    var maxc = Math.max.apply(null, h.counts);
    var p = new Plot({id: 'hist:' + i, w: w, h: plotHeight(w), title: 'Histogram',
      x: axis(lo, hi, Math.round(w / 75), false), y: axis(0, Math.max(maxc, 1) * 1.05, 5, false, true)});
    p.axes(withUnit(m.name, m.unit), 'samples');
    var base = p.sy(0);
    h.counts.forEach(function (c, j) {
      if (c <= 0) return;
      var a = p.sx(lo + j * h.width), b = p.sx(lo + (j + 1) * h.width), gap = b - a > 4 ? 0.5 : 0, top = Math.min(p.sy(c), base - 1);
      p.add(rect(a + gap, top, Math.max(b - a - 2 * gap, 0.8), base - top, BAR,
        '[' + fmt(lo + j * h.width) + ', ' + fmt(lo + (j + 1) * h.width) + '): ' + count(c) + ' samples (' + pct(c / m.n) + ')'));
    });
    [['q05', '5 %'], ['q50', 'median'], ['q95', '95 %']].forEach(function (q) {
      var x = p.sx(m[q[0]]).toFixed(1);
      p.add('<line class="guide" x1="' + x + '" x2="' + x + '" y1="' + p.m.t + '" y2="' + base + '"><title>' + q[1] + ': ' + fmt(m[q[0]]) + '</title></line>');
    });
    return p.svg();
  }
  function plotHeight(w) { return Math.round(Math.max(250, Math.min(320, 0.55 * w))); }
  function cdf(m, i, w) {
    var h = m.hist, lo = h.lo, hi = h.lo + h.counts.length * h.width;
    var p = new Plot({id: 'cdf:' + i, w: w, h: plotHeight(w), title: 'Empirical CDF',
      x: axis(lo, hi, Math.round(w / 75), false), y: axis(0, 1, 4, false)});
    p.axes(withUnit(m.name, m.unit), 'fraction of samples \u2264 x');
    p.add('<path class="mark" d="' + linePath(p, m.cdf.x, m.cdf.p) + '" fill="none" stroke="' + BAR + '" stroke-width="1.8" stroke-linejoin="round"/>');
    var x0 = p.m.l, y0 = p.sy(0);
    [[0.05, 'q05', '5 %'], [0.5, 'q50', 'median'], [0.95, 'q95', '95 %']].forEach(function (q) {
      var x = p.sx(m[q[1]]), y = p.sy(q[0]);
      p.add('<path class="guide" d="M' + x0 + ' ' + y.toFixed(1) + 'H' + x.toFixed(1) + 'V' + y0.toFixed(1) + '" fill="none"/>');
      p.add('<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="3" fill="#c0392b"/>');
      var right = x < p.w - p.m.r - 110;
      p.add('<text class="guide-text" x="' + (right ? x + 6 : x - 6).toFixed(1) + '" y="' + (y + (q[0] > 0.9 ? 12 : -5)).toFixed(1) +
        '" text-anchor="' + (right ? 'start' : 'end') + '">' + q[2] + ': ' + fmt(m[q[1]]) + '</text>');
    });
    return p.svg();
  }
  var mp = document.getElementById('metric-plots');
  if (mp) data.metrics.forEach(function (m, i) {
    var caption = m.n > 0
      ? 'n = ' + count(m.n) + (m.missing ? ', ' + count(m.missing) + ' missing' : '') + ' \u00b7 mean ' + fmt(m.mean) + ' \u00b7 std ' + fmt(m.std) +
        ' \u00b7 min ' + fmt(m.min) + ' \u00b7 5 % ' + fmt(m.q05) + ' \u00b7 median ' + fmt(m.q50) + ' \u00b7 95 % ' + fmt(m.q95) + ' \u00b7 max ' + fmt(m.max)
      : '';
    var into = card(mp, true, titleHtml(m.name, m.unit), caption);
    if (!(m.n > 0)) { into.insertAdjacentHTML('beforeend', '<p class="missing">No finite values: all ' + count(m.missing) + ' samples missing.</p>'); return; }
    var w = fitWidth(into, 2, 380, 660);
    draw(into, 'histogram of ' + m.name, function () { return histogram(m, i, w); });
    draw(into, 'CDF of ' + m.name, function () { return cdf(m, i, w); });
  });

  // ---- events: probability against each parameter ----
  function eventPlot(ev, bp, i, j, yAxis, w) {
    var b = bp.bins, lo = b[0].lo, hi = b[b.length - 1].hi;
    var p = new Plot({id: 'event:' + i + ':' + j, w: w, h: 240, m: {l: 52, r: 14, t: 12, b: 42}, x: axis(lo, hi, Math.round(w / 70), true), y: yAxis});
    p.axes(withUnit(bp.parameter, bp.unit), 'P(' + ev.name + ') [%]');
    if (fin(ev.p)) {
      var yo = p.sy(100 * ev.p).toFixed(1);
      p.add('<line class="overall" x1="' + p.m.l + '" x2="' + (p.w - p.m.r) + '" y1="' + yo + '" y2="' + yo + '"><title>overall ' + pct(ev.p) + '</title></line>');
    }
    var colour = PALETTE[i % PALETTE.length];
    b.forEach(function (bin) {
      var x = p.sx(bin.x), y = p.sy(100 * bin.p), ylo = p.sy(100 * bin.ci_lo), yhi = p.sy(100 * bin.ci_hi);
      var d = 'M' + x.toFixed(1) + ' ' + ylo.toFixed(1) + 'V' + yhi.toFixed(1) +
        'M' + (x - 3.5).toFixed(1) + ' ' + ylo.toFixed(1) + 'h7M' + (x - 3.5).toFixed(1) + ' ' + yhi.toFixed(1) + 'h7' +
        'M' + p.sx(bin.lo).toFixed(1) + ' ' + y.toFixed(1) + 'H' + p.sx(bin.hi).toFixed(1);
      var tip = bp.parameter + ' in [' + fmt(bin.lo) + ', ' + fmt(bin.hi) + ']: ' + count(bin.k) + ' / ' + count(bin.n) + ' = ' + pct(bin.p) +
        ', 95 % CI [' + pct(bin.ci_lo) + ', ' + pct(bin.ci_hi) + ']';
      p.add('<path class="mark" d="' + d + '" fill="none" stroke="' + colour + '" stroke-width="1.4" stroke-opacity="0.85"><title>' + esc(tip) + '</title></path>');
      p.add('<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="3.2" fill="' + colour + '"><title>' + esc(tip) + '</title></circle>');
    });
    return p.svg();
  }
  var ep = document.getElementById('event-plots');
  if (ep) data.events.forEach(function (ev, i) {
    var top = 0;
    ev.by_parameter.forEach(function (bp) { bp.bins.forEach(function (b) { top = Math.max(top, b.ci_hi); }); });
    var yAxis = axis(0, Math.max(100 * top, 1e-9), 5, true);  // shared by the event's plots: comparable at a glance
    var caption = (ev.description ? esc(ev.description) + ' \u00b7 ' : '') + 'overall ' + count(ev.count) + ' / ' + count(ev.n) + ' = ' + pct(ev.p) +
      ' (95 % CI ' + pct(ev.ci_lo) + ' \u2013 ' + pct(ev.ci_hi) + '; dashed line)';
    var into = card(ep, true, 'P(' + esc(ev.name) + ')', caption);
    var w = fitWidth(into, ev.by_parameter.length, 320, 440);
    ev.by_parameter.forEach(function (bp, j) {
      if (!bp.bins.length) { into.insertAdjacentHTML('beforeend', '<p class="missing">' + esc(bp.parameter) + ': no finite values.</p>'); return; }
      draw(into, 'P(' + ev.name + ') by ' + bp.parameter, function () { return eventPlot(ev, bp, i, j, yAxis, w); });
    });
  });

  // ---- sensitivity bars ----
  var SERIES = [['spearman', 'Spearman \u03c1', '#4e79a7'], ['sobol_first', 'Sobol first-order S1', '#f28e2b'], ['sobol_total', 'Sobol total ST', '#59a14f']];
  function sensitivityPlot(g, i, w) {
    var series = SERIES.filter(function (s) { return g.rows.some(function (r) { return fin(r[s[0]]); }); });
    var longest = Math.max.apply(null, g.rows.map(function (r) { return Math.min(r.parameter.length, 24); }));
    var left = Math.max(70, Math.min(180, 14 + 6.4 * longest)), band = 8 + 11 * series.length;
    var items = series.map(function (s) { return {label: s[1], colour: s[2], kind: 'box'}; });
    var layout = legendLayout(items, w - left - 40);
    var top = 30 + layout.height + 6, h = top + band * g.rows.length + 44;
    var p = new Plot({id: 'sens:' + i, w: w, h: h, m: {l: left, r: 40, t: top, b: 44}, x: axis(-1, 1, 4, false), y: {lo: 0, hi: g.rows.length, step: 1, ticks: [], exp: 0}});
    p.add('<text class="title" x="' + left + '" y="16">' + esc(withUnit(g.metric, g.unit)) + '</text>');
    legend(p, items, layout, left, 34);
    p.axes(series.length > 1 ? 'index (\u03c1 from \u22121 to 1, Sobol from 0 to 1)' : 'Spearman rank correlation \u03c1', '');
    var zero = p.sx(0);
    g.rows.forEach(function (r, k) {
      var y0 = top + k * band;
      var name = r.parameter.length > 24 ? r.parameter.slice(0, 23) + '\u2026' : r.parameter;
      p.add('<text x="' + (left - 8) + '" y="' + (y0 + band / 2).toFixed(1) + '" dy="0.35em" text-anchor="end">' + esc(name) + '<title>' + esc(r.parameter) + '</title></text>');
      if (k > 0) p.add('<line class="grid" x1="' + (left - 4) + '" x2="' + (p.w - p.m.r) + '" y1="' + y0 + '" y2="' + y0 + '"/>');
      series.forEach(function (s, q) {
        var v = r[s[0]];
        if (!fin(v)) return;
        var x = p.sx(Math.max(-1, Math.min(1, v))), y = y0 + 4 + 11 * q, a = Math.min(x, zero), w = Math.max(Math.abs(x - zero), 1);
        p.add(rect(a, y, w, 9, s[2], s[1] + ' of ' + g.metric + ' and ' + r.parameter + ': ' + fmt(v, 3)));
        // the value at the bar's end: inside a long bar (outside it would run into the names or the edge)
        var inside = Math.abs(v) > 0.7, lx = inside ? (v < 0 ? a + 4 : a + w - 4) : (v < 0 ? a - 4 : a + w + 4);
        p.add('<text x="' + lx.toFixed(1) + '" y="' + (y + 4.5) + '" dy="0.35em" font-size="10"' + (inside ? ' style="fill:#fff"' : '') +
          ' text-anchor="' + ((v < 0) === inside ? 'start' : 'end') + '">' + fmt(v, 2) + '</text>');
      });
    });
    p.add('<line class="zero" x1="' + zero.toFixed(1) + '" x2="' + zero.toFixed(1) + '" y1="' + top + '" y2="' + (h - p.m.b) + '"/>');
    return p.svg();
  }
  var sp = document.getElementById('sensitivity-plots');
  if (sp) {
    var into = card(sp, true, 'Sensitivity of each metric to the parameters', 'Most influential parameter first. Spearman \u03c1: rank correlation (sign = direction). Sobol indices: share of the metric\u2019s variance due to the parameter alone (S1) and with its interactions (ST).');
    var sw = fitWidth(into, data.sensitivity.length, 400, 560);
    data.sensitivity.forEach(function (g, i) { draw(into, 'sensitivity of ' + g.metric, function () { return sensitivityPlot(g, i, sw); }); });
  }

  // ---- worst-case time series ----
  function tracePlot(ch, i, w) {
    var tlo = Infinity, thi = -Infinity, ylo = Infinity, yhi = -Infinity;
    ch.series.forEach(function (s) {
      s.t.forEach(function (t, k) { if (fin(t) && fin(s.y[k])) { tlo = Math.min(tlo, t); thi = Math.max(thi, t); ylo = Math.min(ylo, s.y[k]); yhi = Math.max(yhi, s.y[k]); } });
    });
    var pad = (yhi - ylo) * 0.04;
    var items = ch.series.map(function (s) {
      var t = data.traces.list[s.trace];
      return {label: 'sample ' + t.sample + (t.label ? ' \u2013 ' + t.label : ''), colour: PALETTE[s.trace % PALETTE.length], kind: 'line'};
    });
    var layout = legendLayout(items, w - 62 - 16), legendH = layout.height + 6;
    var p = new Plot({id: 'trace:' + i, w: w, h: plotHeight(w) + legendH, m: {l: 62, r: 16, t: 30 + legendH, b: 44},
      title: withUnit(ch.name, ch.unit), x: axis(tlo, thi, Math.round(w / 75), false), y: axis(ylo - pad, yhi + pad, 5, true)});
    legend(p, items, layout, 62, 36);
    p.axes('time [s]', withUnit(ch.name, ch.unit));
    ch.series.forEach(function (s) {
      p.add('<path class="mark" d="' + linePath(p, s.t, s.y) + '" fill="none" stroke="' + PALETTE[s.trace % PALETTE.length] +
        '" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"><title>sample ' + data.traces.list[s.trace].sample + '</title></path>');
    });
    return p.svg();
  }
  var tp = document.getElementById('trace-plots');
  if (tp) {
    var tinto = card(tp, true, 'Worst cases', 'One line per sample; series longer than ' + data.trace_points + ' points are thinned to each stretch\u2019s minimum and maximum.');
    var tw = fitWidth(tinto, data.traces.channels.length, 480, 900);
    data.traces.channels.forEach(function (ch, i) {
      if (!ch.series.length) { tinto.insertAdjacentHTML('beforeend', '<p class="missing">' + esc(ch.name) + ': no finite values.</p>'); return; }
      draw(tinto, 'worst cases: ' + ch.name, function () { return tracePlot(ch, i, tw); });
    });
  }

  body.dataset.plotsDrawn = String(drawn);
})();
