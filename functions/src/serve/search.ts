import { createSearchHandler } from '../books/search.app';
import { loadSdks } from '../lib/firebase';

// The `search` function's code (lib/search.js): the catalogue's search index and its routes. Its
// first search downloads the index's snapshot from Storage: that SDK loads as the instance starts.
loadSdks({ storage: true });
export default createSearchHandler();
