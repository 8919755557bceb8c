/** The packages src/lazy/modules.cjs keeps out of the bundle's main file. */
export type LazyPackage = 'undici' | 'yaml'
/** Load a package once (a chunk of its own in the bundle); later calls resolve at once. */
export declare function load(name: LazyPackage): Promise<void>
