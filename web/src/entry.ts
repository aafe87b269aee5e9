import './index.css';

// The page's entry: its stylesheet, and the app started after the first frame. Every served page
// (the build's prerender, the pages function) paints from its HTML and CSS alone; the app only takes
// it over (hydrates), so its code is asked for once the first screen is up instead of sharing a
// phone's connection with the stylesheet and the first screen's images. Vite preloads main's
// imports when this import starts; the router then loads the route's chunk.
requestAnimationFrame(() => setTimeout(() => void import('./main'), 0));
