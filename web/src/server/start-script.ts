// The one inline script of every served page (decisions 029 and 030). Two jobs:
//
// 1. It starts the app as soon as the page is parsed and the browser has painted its content (the
//    first-contentful-paint entry, then a task), by adding the entry module and its preloads named
//    in its own data attributes: the code downloads right after the first paint, not after the load
//    event (pictures no longer hold the buttons back), and never before it (the page's stylesheet
//    has the link to itself, and Lighthouse counts what finished before the paint into the paint).
//    An empty root (shell.html: the app draws the page) starts at once; 3 s after the parse it
//    starts anyway (a hidden tab paints nothing); without the Paint Timing API, after a frame.
// 2. Until the app takes over, it keeps what the shopper does to the drawn page (decision 038): a
//    click on a button or a checkbox, a new choice in a select, each control at most once (the
//    last choice for a select), marked `data-queued`; a form is not sent by the browser meanwhile.
//    The app calls `__early.stop()` just before it hydrates (from then on React sees every event;
//    the marks go, so React hydrates its own markup) and `__early.replay()` once hydrated
//    (web/src/lib/early-input.ts): each kept tap is played once. A button is clicked only if it
//    still says what it said when tapped: a heart drawn 'Add to wishlist' that this browser's list
//    turns out to hold says 'Remove' by then, and the tap's intent is met without undoing it. So a
//    tap on Add to Cart before the app starts is not lost and has exactly one effect. A link tapped
//    while taps wait (Add to Cart, then at once the header's Cart) is kept too (the last one) and
//    followed after every other kept tap, by the app's router: followed at once, its page load
//    would drop the taps. A link with no tap waiting, or opened in a new tab or window, is the
//    browser's as ever.
// 3. A tap on a drawn Add to Cart (a button with `data-book`) is answered at once, not only kept
//    (issue 60: a phone waited about two seconds for the app to show anything): the book, as the
//    page's query state has it, goes into the stored cart the app reads (`bookstore.cart`,
//    features/cart/cart-store.ts); the header's Cart link says the new count (its aria-label, put
//    back at `stop()` so React hydrates the server's markup) and shows it, and the button a check
//    mark, by a style element of the script's own in the head: outside what React hydrates, so they
//    stay until the app's render says the same. The tap stays in the queue (the button marked
//    `data-added` too, index.css), but the replay hands the book to the app (`replay(onEarlyAdd)`,
//    app.tsx) instead of clicking: the app keeps it once and shows its toast, and the style goes.
//    A book already in the stored cart, one the page's state does not hold, or storage that cannot
//    be read or written: the tap is kept as any other and replayed. A tap while the page is still
//    being parsed (a phone draws the first cards before the query state at the end has arrived) is
//    answered the same at once, and its book stored when the parse ends (`z()`, at
//    DOMContentLoaded, before the app can start); one the state turns out not to hold is replayed.
//
// The preload links go in two tasks (issue 60): each costs Chromium about half a millisecond, and a
// page's 16-22 in one task held a 4x-throttled phone's main thread 50-90 ms (a page has 7-15 since
// the entry's static imports share its chunk, vite.config.ts). The first half (the start's own files
// come first) goes in with the entry, the rest a task later: in more, smaller tasks the last ones
// waited behind the page's own long tasks, and the app started up to 400 ms later.
//
// Inline, so that it costs no request of its own (neither the page's nor the service worker's); the
// CSP allows exactly this text by its SHA-256 (firebase.json; start-script.test.ts keeps the two in
// step). Written by hand in the form it is served: any change to it changes the hash.
export const START_SCRIPT =
  '(function(){var s=document.currentScript,e=s&&s.getAttribute("data-entry"),d=0,q=[],on=1,A=[],W=[],H,S;if(!e)return;' +
  'function r(v){if(!on)return;if(v.type=="submit"){v.preventDefault();return}' +
  'var t=v.target,c=t&&t.closest&&t.closest("button,select,input[type=checkbox]"),' +
  'l=!c&&q.length&&v.type=="click"&&!v.button&&!(v.ctrlKey||v.metaKey||v.shiftKey||v.altKey)&&t&&t.closest&&t.closest("a[href]");' +
  'if(l&&!l.target&&l.closest("#root")){v.preventDefault();for(var j=q.length-1;j>=0;j--)if(q[j].link)q.splice(j,1)[0].el.removeAttribute("data-queued");q.push({el:l,link:1});l.setAttribute("data-queued","");return}' +
  'if(!c||c.disabled||!c.closest("#root"))return;' +
  'var x;for(var i=0;i<q.length;i++)if(q[i].el==c)x=q[i];' +
  'if(c.tagName=="SELECT"){if(v.type!="change")return;x?x.value=c.value:q.push({el:c,value:c.value})}' +
  'else{if(v.type!="click")return;if(c.type=="checkbox")v.preventDefault();x||q.push(k(c)||{el:c,text:c.textContent})}' +
  'c.setAttribute("data-queued","")}' +
  'function f(o,i){var r,j;if(!o||typeof o!="object")return;if(o._id===i&&typeof o.title=="string"&&typeof o.newPrice=="number")return o;for(j in o)if(r=f(o[j],i))return r}' +
  'function k(c){var i=c.getAttribute&&c.getAttribute("data-book"),K="bookstore.cart",L,b,j,n,h,x;if(!i||A.indexOf(i)>=0)return 0;' +
  'try{L=JSON.parse(localStorage.getItem(K)||"[]");for(j=0;j<L.length;j++)if(L[j]&&L[j]._id==i)return 0;x={el:c,text:c.textContent,id:i};' +
  'if(document.readyState=="loading")W.push(x);' +
  'else{b=f(JSON.parse(document.getElementById("query-state").textContent),i);if(!b)return 0;L.push(b);localStorage.setItem(K,JSON.stringify(L));x.book=b}}catch(y){return 0}' +
  'n=L.length+W.length;h=document.querySelector("a[href=\'/cart\'][aria-label^=Cart]");A.push(i);' +
  'if(h){H||(H={el:h,label:h.getAttribute("aria-label")});h.setAttribute("aria-label","Cart, "+n+(n==1?" item":" items"))}' +
  'S||(S=document.createElement("style"),document.head.appendChild(S));S.textContent="[data-testid=cart-count]{font-size:0}[data-testid=cart-count]::after{font-size:1rem;content:\\""+n+"\\"}"+' +
  'A.map(function(d){return"[data-book="+JSON.stringify(d)+"]::after{content:\\"\\\\2713\\"}"}).join("");' +
  'c.setAttribute("data-added","");return x}' +
  'function z(){var K="bookstore.cart",F=W.splice(0),Q,L,R=[];if(!F.length)return;' +
  'try{Q=JSON.parse(document.getElementById("query-state").textContent);L=JSON.parse(localStorage.getItem(K)||"[]");' +
  'F.forEach(function(x){var b=f(Q,x.id);if(b&&!L.some(function(o){return o&&o._id==x.id})){L.push(b);R.push([x,b])}});' +
  'localStorage.setItem(K,JSON.stringify(L));R.forEach(function(r){r[0].book=r[1]})}catch(y){}}' +
  '["click","change","submit"].forEach(function(n){addEventListener(n,r,true)});' +
  'window.__early={stop:function(){on=0;q.forEach(function(x){x.el.removeAttribute("data-queued");x.el.removeAttribute("data-added")});H&&H.el.setAttribute("aria-label",H.label)},' +
  'replay:function(y){q.splice(0).sort(function(a,b){return(a.link||0)-(b.link||0)}).forEach(function(x){var c=x.el;' +
  'if(x.book){y&&y(x.book);return}if(!c.isConnected)return;' +
  'if("value"in x){c.value=x.value;c.dispatchEvent(new Event("change",{bubbles:true}))}else if(x.link||c.textContent==x.text&&!c.disabled)c.click()});' +
  'S&&(S.textContent="")}};' +
  'function a(t,o){var n=document.createElement(t);for(var k in o)n.setAttribute(k,o[k]);document.head.appendChild(n)}' +
  'function g(){if(d)return;d=1;var P=(s.getAttribute("data-preload")||"").split(" ");function n(k){P.splice(0,k).forEach(function(h){h&&a("link",{rel:"modulepreload",crossorigin:"",href:h})})}' +
  'n(Math.ceil(P.length/2));a("script",{type:"module",crossorigin:"",src:e});setTimeout(function(){n(P.length)},0)}' +
  'function p(){var r=document.getElementById("root"),o;z();if(!r||!r.firstChild)return g();setTimeout(g,3000);' +
  'try{o=new PerformanceObserver(function(l){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(g,0)}});o.observe({type:"paint",buffered:true})}' +
  'catch(x){requestAnimationFrame(function(){setTimeout(g,0)})}}' +
  'document.readyState=="loading"?addEventListener("DOMContentLoaded",p,{once:true}):p()})()';
