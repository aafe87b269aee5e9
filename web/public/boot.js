// Starts the app after the first paint. The prerendered pages (web/prerender.ts) paint from their
// HTML and CSS alone; their scripts only take the page over, so they are asked for once the first
// screen is up instead of sharing the connection with the stylesheet and the first screen's images.
// data-entry: the app's entry module; data-preload: the modules it and the page's route import.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  var preload = (script.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  function start() {
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    var app = document.createElement('script');
    app.type = 'module';
    app.crossOrigin = '';
    app.src = entry;
    document.head.appendChild(app);
  }
  // The frame after this one has painted.
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
})();
