window.onerror = function (message, source, line) {
  var b = document.body || document.documentElement;
  b.dataset.error = (b.dataset.error ? b.dataset.error + '; ' : '') + message + (line ? ' (line ' + line + ')' : '');
};
