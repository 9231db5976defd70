/** The manifest the editor starts with: the seed's running example (seed/DIGEST.md). */
import peekcart from '../../scenarios/peekcart.yaml?raw';

export const SEED_MANIFEST: string = peekcart;
