// Starts the app after the page has loaded and drawn a frame, or after 3 s whatever still loads
// (docs/decisions/029-start-after-load.md).
(function () {
  var me = document.currentScript;
  var entry = me && me.getAttribute('data-entry');
  var started = false;
  if (!entry) return;
  function add(tag, attrs) {
    var el = document.createElement(tag);
    for (var k in attrs) el.setAttribute(k, attrs[k]);
    document.head.appendChild(el);
  }
  function start() {
    if (started) return;
    started = true;
    (me.getAttribute('data-preload') || '').split(' ').forEach(function (href) {
      if (href) add('link', { rel: 'modulepreload', crossorigin: '', href: href });
    });
    add('script', { type: 'module', crossorigin: '', src: entry });
  }
  function afterPaint() {
    requestAnimationFrame(function () { setTimeout(start, 0); });
  }
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
  setTimeout(start, 3000);
})();
