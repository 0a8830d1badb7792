/**
 * The process's `Database`, provided by the global InfrastructureModule to PersistenceModule alone: not exported from
 * the platform's index, so an app module cannot inject the whole database, only what its PersistenceModule.forFeature
 * declares.
 */
export const DATABASE = Symbol('Database');
