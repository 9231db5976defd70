/**
 * `npx tsx src/cli/apiserver-proto-schema.ts [path/to/kubectl]` — generates
 * src/server/protobuf-schema.generated.ts, the Protocol Buffers schema of the built-in API
 * groups the engine serves, for decoding the `application/vnd.kubernetes.protobuf` request
 * bodies kubectl's typed clients send (src/server/protobuf.ts).
 *
 * Source: the real kubectl binary on this machine (v1.32). Every k8s.io/api and
 * k8s.io/apimachinery package's generated.pb.go registers its FileDescriptorProto, gzipped, in the
 * binary (`proto.RegisterFile("k8s.io/api/core/v1/generated.proto", fileDescriptor_…)`); this
 * script finds those gzip streams, decodes each descriptor (descriptor.proto field numbers) and
 * keeps, per message, each field's number, name, type, whether it is repeated, and whether Go
 * holds it by pointer: go-to-protobuf marks every non-pointer field `(gogoproto.nullable) =
 * false` (FieldOptions extension 65001). Only needed to regenerate; tests use the output.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gunzipSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { readFields, utf8, type WireField } from '../server/protobuf-wire';

const OUT = fileURLToPath(new URL('../server/protobuf-schema.generated.ts', import.meta.url));
/**
 * Packages kept: the API group versions the engine serves (as protobuf packages), and apimachinery's.
 * authentication.k8s.io/v1 and authorization.k8s.io/v1 are the review APIs: `kubectl auth whoami`
 * and `kubectl auth can-i` POST their SelfSubjectReview / SelfSubjectAccessReview /
 * SelfSubjectRulesReview as protobuf.
 */
const KEEP =
  /^k8s\.io\.(apimachinery\.pkg\.(apis\.meta\.v1|api\.resource|util\.intstr|runtime)|api\.(core|apps|batch|rbac|authentication|authorization|networking|policy|scheduling|storage|coordination|discovery|node|certificates|events|admissionregistration|flowcontrol)\.v1|api\.autoscaling\.v[12])$/;
const SCALARS: Record<number, string> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};

const str = (fs: WireField[], no: number) => fs.filter((f) => f.no === no).map((f) => utf8(f.value as Uint8Array))[0] ?? '';
const num = (fs: WireField[], no: number) => Number(fs.find((f) => f.no === no)?.value ?? 0n);
const subs = (fs: WireField[], no: number) => fs.filter((f) => f.no === no).map((f) => readFields(f.value as Uint8Array));

interface Field {
  no: number;
  name: string;
  type: string;
  repeated: boolean;
  nullable: boolean;
}

/** Messages by full name (no leading dot), and the map-entry messages to inline. */
const messages = new Map<string, Field[]>();
const mapEntries = new Map<string, Field[]>();

function addMessage(prefix: string, d: WireField[]): void {
  const name = `${prefix}.${str(d, 1)}`;
  const isMapEntry = subs(d, 7).some((o) => num(o, 7) === 1);
  for (const nested of subs(d, 3)) addMessage(name, nested);
  const fields = subs(d, 2).map((f): Field => {
    const t = num(f, 5);
    const options = subs(f, 8)[0] ?? [];
    const nullableOpt = options.find((o) => o.no === 65001);
    return {
      no: num(f, 3),
      name: str(f, 1),
      type: t === 11 || t === 14 ? str(f, 6).replace(/^\./, '') : (SCALARS[t] ?? `type${t}`),
      repeated: num(f, 4) === 3,
      // a message field is a pointer unless marked nullable=false; scalars likewise (proto2 gogo)
      nullable: nullableOpt ? nullableOpt.value !== 0n : true,
    };
  });
  (isMapEntry ? mapEntries : messages).set(name, fields);
}

const kubectl = realpathSync(process.argv[2] ?? execFileSync('which', ['kubectl']).toString().trim());
const bin = readFileSync(kubectl);
const magic = Buffer.from([0x1f, 0x8b, 0x08]);
const seen = new Set<string>();
for (let i = bin.indexOf(magic); i >= 0; i = bin.indexOf(magic, i + 1)) {
  let fd: WireField[];
  try {
    const raw = gunzipSync(bin.subarray(i, i + 1_000_000), { finishFlush: constants.Z_SYNC_FLUSH });
    // FileDescriptorProto field 1 (name) first: "\n", its length, "k8s.io/…/generated.proto"
    if (
      raw[0] !== 0x0a ||
      !raw
        .subarray(2, 2 + raw[1])
        .toString('latin1')
        .match(/^k8s\.io\/.*generated\.proto$/)
    )
      continue;
    fd = readFields(raw);
  } catch {
    continue;
  }
  const pkg = str(fd, 2);
  if (!KEEP.test(pkg) || seen.has(pkg)) continue;
  seen.add(pkg);
  for (const m of subs(fd, 4)) addMessage(pkg, m);
}

function typeExpr(f: Field): string {
  const entry = mapEntries.get(f.type);
  if (entry) return `map<${entry[0].type},${entry[1].type}>`;
  return f.type;
}

const lines = [...messages.keys()].sort().map((name) => {
  const fields = messages
    .get(name)!
    .map((f) => `${f.no}:${f.name}:${typeExpr(f)}${f.repeated && !mapEntries.has(f.type) ? '*' : ''}${f.nullable ? '?' : ''}`);
  return `  '${name}': '${fields.join(' ')}',`;
});
writeFileSync(
  OUT,
  `/**
 * GENERATED by \`npx tsx src/cli/apiserver-proto-schema.ts\` from the FileDescriptorProtos the real
 * kubectl v1.32 binary registers (k8s.io/api and k8s.io/apimachinery generated.proto); do not edit.
 *
 * Message full name → space-separated fields \`number:jsonName:type\`, then \`*\` when repeated and \`?\`
 * when Go holds the field by pointer (no \`(gogoproto.nullable) = false\`: a zero value on the wire is
 * meaningful). Types: proto scalars, \`map<K,V>\`, or a message's full name.
 * Packages: ${[...seen].sort().join(', ')}.
 */
export const PROTO_MESSAGES: Record<string, string> = {
${lines.join('\n')}
};
`,
);
process.stdout.write(`${OUT}: ${messages.size} messages from ${seen.size} packages\n`);
