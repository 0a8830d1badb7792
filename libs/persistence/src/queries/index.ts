export * from './listing-clauses';
export * from './template-listing.query';
export * from './template-version-listing.query';
export * from './document-listing.query';
export * from './signed-link.query';
export * from './organisation-stats';
