// The one inline script of every served page (decision 029): it starts the app once the page has
// loaded and drawn a frame, or 3 s on if the document has been parsed by then (a slow picture must
// not hold the buttons back; a half-parsed page cannot be hydrated), by adding the entry module and its
// preloads named in its own data attributes. Inline, so that it costs no request of its own (neither
// the page's nor the service worker's); the CSP allows exactly this text by its SHA-256
// (firebase.json; web/src/server/start-script.test.ts keeps the two in step). Written by hand in the
// form it is served: any change to it changes the hash.
export const START_SCRIPT =
  '(function(){var s=document.currentScript,e=s&&s.getAttribute("data-entry"),d=0;if(!e)return;' +
  'function a(t,o){var n=document.createElement(t);for(var k in o)n.setAttribute(k,o[k]);document.head.appendChild(n)}' +
  'function g(){if(d)return;d=1;(s.getAttribute("data-preload")||"").split(" ").forEach(function(h){h&&a("link",{rel:"modulepreload",crossorigin:"",href:h})});' +
  'a("script",{type:"module",crossorigin:"",src:e})}' +
  'function p(){requestAnimationFrame(function(){setTimeout(g,0)})}' +
  'document.readyState=="complete"?p():addEventListener("load",p,{once:true});' +
  'setTimeout(function(){document.readyState=="loading"?addEventListener("DOMContentLoaded",g):g()},3000)})()';
