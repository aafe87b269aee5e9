import { describe, expect, it } from 'vitest';
import { assetTags } from '../../web/src/server/document';
import { namedAssets } from './two-releases';

// The rehearsal of two releases fetches every /assets/ file a served page names: the start script
// names the entry and its preloads in data attributes (decision 029), the stylesheets are links.

describe('namedAssets', () => {
  it("reads every file the page's asset tags name, and nothing else", () => {
    const manifest = {
      'index.html': { file: 'assets/index-E1.js', css: ['assets/index-C1.css'], imports: ['_vendor.js'] },
      '_vendor.js': { file: 'assets/vendor-V1.js' },
      'src/app/routes/book.tsx': { file: 'assets/book-B1.js', css: ['assets/book-C2.css'], imports: ['_vendor.js'] },
    };
    const html = `<html><head>${assetTags(manifest as never, 'book').join('')}<link rel="icon" href="/favicon.svg"></head><body><img src="/covers/x.png"></body></html>`;
    expect(namedAssets(html).sort()).toEqual(['book-B1.js', 'book-C2.css', 'index-C1.css', 'index-E1.js', 'vendor-V1.js']);
  });
});
