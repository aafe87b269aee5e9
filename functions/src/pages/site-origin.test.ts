import { describe, expect, it } from 'vitest';
import { siteOrigin } from './site-origin';

describe('siteOrigin', () => {
  it('is PUBLIC_ORIGIN when set, reduced to its origin', () => {
    expect(siteOrigin({ PUBLIC_ORIGIN: 'https://shop.example/', K_SERVICE: 'pages' })).toBe('https://shop.example');
  });

  it('is the project’s Hosting domain on Cloud Run, and Hosting’s local address on the emulators', () => {
    expect(siteOrigin({ K_SERVICE: 'pages', GCLOUD_PROJECT: 'my-shop' })).toBe('https://my-shop.web.app');
    expect(siteOrigin({ K_SERVICE: 'pages', FIREBASE_CONFIG: '{"projectId":"my-shop"}' })).toBe('https://my-shop.web.app');
    expect(siteOrigin({ FUNCTIONS_EMULATOR: 'true', K_SERVICE: 'pages', GCLOUD_PROJECT: 'demo-bookstore' })).toBe('http://127.0.0.1:5000');
  });
});
