import { describe, expect, it } from 'vitest';
import { axisTicks } from './revenue-chart';

describe('revenue chart axis (issue 29)', () => {
  it('covers the highest bar with 0 and four round steps', () => {
    expect(axisTicks(1150)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(axisTicks(307.41)).toEqual([0, 100, 200, 300, 400]);
    expect(axisTicks(19.99)).toEqual([0, 5, 10, 15, 20]);
    expect(axisTicks(0)).toEqual([0, 0.5, 1, 1.5, 2]);
  });
});
