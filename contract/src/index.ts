export * from './admin';
export * from './book';
export * from './catalog';
export * from './covers';
export * from './errors';
export * from './money';
export * from './order';
export * from './text';
