import { describe, expect, it } from 'vitest';
import { defaultBucketName } from './firebase';

describe('defaultBucketName', () => {
  it("takes the bucket Cloud Functions names in FIREBASE_CONFIG (new projects' firebasestorage.app)", () => {
    const env = { FIREBASE_CONFIG: JSON.stringify({ projectId: 'shop', storageBucket: 'shop.firebasestorage.app' }), GCLOUD_PROJECT: 'shop' };
    expect(defaultBucketName(env)).toBe('shop.firebasestorage.app');
  });

  it('lets STORAGE_BUCKET override it', () => {
    expect(defaultBucketName({ STORAGE_BUCKET: 'other', FIREBASE_CONFIG: '{"storageBucket":"shop.appspot.com"}' })).toBe('other');
  });

  it('never guesses from the project id: no bucket named is an error that says what to do', () => {
    expect(() => defaultBucketName({ GCLOUD_PROJECT: 'shop', FIREBASE_CONFIG: '{"projectId":"shop"}' })).toThrow(/Storage > Get started/);
    expect(() => defaultBucketName({ GCLOUD_PROJECT: 'shop' })).toThrow(/No default Storage bucket/);
  });
});
