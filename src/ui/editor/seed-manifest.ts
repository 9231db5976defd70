/** The manifest the editor starts with: kube-relay's running example (peekcart: a Deployment of 3 replicas and its Service). */
import peekcart from '../../scenarios/peekcart.yaml?raw';

export const SEED_MANIFEST: string = peekcart;
