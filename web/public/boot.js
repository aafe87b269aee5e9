// Starts the app after the first paint. The prerendered pages (web/prerender.ts) paint from their
// HTML and CSS alone; their scripts only take the page over, so they are asked for once the first
// screen is up instead of sharing the connection with the stylesheet and the first screen's images.
// data-entry: the app's entry module; data-preload: the modules it and the page's route import.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  var preload = (script.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  function add(tag, attrs) {
    var el = document.createElement(tag);
    el.crossOrigin = '';
    for (var name in attrs) el[name] = attrs[name];
    document.head.appendChild(el);
  }
  // One element per task: starting a module's fetch is not free on a slow phone, and a dozen at once
  // make one long task.
  function start() {
    import(entry);
    preload.forEach(function (href, i) {
      setTimeout(function () {
        add('link', { rel: 'modulepreload', href: href });
      }, i);
    });
  }
  // The frame after this one has painted.
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
})();
