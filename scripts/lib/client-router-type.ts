// The router's type as a client sees it, written out in plain TypeScript: each procedure's input
// and output, the error shape, nothing else. The server's own AppRouter type reaches its context
// (MikroORM, Fastify, pg, the storage and job queue) and its meta (zod, trpc-to-openapi), which a
// consumer of the client package does not have; a declaration bundler would have to inline all of
// them (and TypeScript refuses to serialize some: TS7056). So the compiler resolves every input and
// output here, and this prints them structurally: types declared in the service are expanded,
// TypeScript's own (Date, arrays, AsyncIterable) and tRPC's TrackedEnvelope kept by name, Node's
// replaced by `unknown` (JSON carries none of them). Types met more than once are named once.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ROUTER_FILE = join(ROOT, 'src/client/router.ts');

export function clientRouterTypeSource(): string {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram({ rootNames: [ROUTER_FILE], options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(ROUTER_FILE)!;
  const alias = source.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'ServerRouter');
  if (!alias) throw new Error('src/client/router.ts has no ServerRouter type');
  const router = checker.getTypeFromTypeNode(alias.type);

  const prop = (type: ts.Type, name: string): ts.Type => {
    const symbol = checker.getPropertyOfType(type, name);
    if (!symbol) throw new Error(`no property ${name} in ${checker.typeToString(type)}`);
    return checker.getTypeOfSymbol(symbol);
  };
  const def = prop(router, '_def');
  const record = prop(def, 'record');
  const errorShape = prop(prop(prop(def, '_config'), '$types'), 'errorShape');

  const isLib = (decl: ts.Declaration) => program.isSourceFileDefaultLibrary(decl.getSourceFile());
  const fileOf = (type: ts.Type) => (type.aliasSymbol ?? type.getSymbol())?.declarations?.[0]?.getSourceFile().fileName ?? '';
  const isNode = (type: ts.Type) => fileOf(type).includes('/node_modules/@types/node/');
  const isTracked = (type: ts.Type) => type.aliasSymbol?.name === 'TrackedEnvelope' && fileOf(type).includes('/@trpc/server/');
  const libName = (type: ts.Type): string | undefined => {
    const symbol = type.getSymbol();
    const decl = symbol?.declarations?.[0];
    const named = symbol && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class) && !symbol.name.startsWith('__');
    return named && decl && isLib(decl) ? symbol.name : undefined;
  };
  const structural = (type: ts.Type): boolean =>
    !!(type.flags & ts.TypeFlags.Object) &&
    !checker.isArrayType(type) &&
    !checker.isTupleType(type) &&
    !libName(type) &&
    !isNode(type) &&
    !isTracked(type) &&
    type.getCallSignatures().length === 0;

  // Pass 1: how often each object type is met (a second meeting, or a cycle, names it).
  const seen = new Map<number, number>();
  const idOf = (type: ts.Type) => (type as unknown as { id: number }).id;
  const children = (type: ts.Type): ts.Type[] => {
    if (type.isUnionOrIntersection()) return type.types;
    if (isTracked(type)) return type.aliasTypeArguments ? [...type.aliasTypeArguments] : [];
    if (type.flags & ts.TypeFlags.Object) {
      if (checker.isArrayType(type) || checker.isTupleType(type) || libName(type)) return [...checker.getTypeArguments(type as ts.TypeReference)];
      if (!structural(type)) return [];
      return [...checker.getPropertiesOfType(type).map((p) => checker.getTypeOfSymbol(p)), ...checker.getIndexInfosOfType(type).map((info) => info.type)];
    }
    return [];
  };
  const count = (type: ts.Type) => {
    if (structural(type)) {
      const n = seen.get(idOf(type)) ?? 0;
      seen.set(idOf(type), n + 1);
      if (n > 0) return;
    }
    for (const child of children(type)) count(child);
  };

  // Pass 2: print.
  const names = new Map<number, string>();
  const used = new Set<string>();
  const declarations: string[] = [];
  const nameFor = (type: ts.Type) => {
    let base = (type.aliasSymbol ?? type.getSymbol())?.name ?? 'Shape';
    if (!/^[A-Za-z_$][\w$]*$/.test(base) || base.startsWith('__')) base = 'Shape';
    base = base.charAt(0).toUpperCase() + base.slice(1);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}${i}`;
    used.add(name);
    return name;
  };
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

  const print = (type: ts.Type): string => {
    const f = type.flags;
    if (f & ts.TypeFlags.Any) return 'any';
    if (f & ts.TypeFlags.Unknown) return 'unknown';
    if (f & ts.TypeFlags.Never) return 'never';
    if (f & ts.TypeFlags.StringLiteral) return JSON.stringify((type as ts.StringLiteralType).value);
    if (f & ts.TypeFlags.NumberLiteral) return String((type as ts.NumberLiteralType).value);
    if (f & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
    if (f & ts.TypeFlags.BigIntLiteral) return checker.typeToString(type);
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return 'string';
    if (f & ts.TypeFlags.Number) return 'number';
    if (f & ts.TypeFlags.Boolean) return 'boolean';
    if (f & ts.TypeFlags.BigInt) return 'bigint';
    if (f & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol)) return 'symbol';
    if (f & ts.TypeFlags.Null) return 'null';
    if (f & ts.TypeFlags.Undefined) return 'undefined';
    if (f & ts.TypeFlags.Void) return 'void';
    if (f & ts.TypeFlags.NonPrimitive) return 'object';
    if (type.isUnion()) return type.types.map((t) => wrap(t)).join(' | ');
    if (type.isIntersection()) return type.types.map((t) => wrap(t)).join(' & ');
    if (f & ts.TypeFlags.TypeParameter) return 'unknown';
    if (!(f & ts.TypeFlags.Object)) return 'unknown';
    if (isTracked(type)) return `TrackedEnvelope<${(type.aliasTypeArguments ?? []).map(print).join(', ') || 'unknown'}>`;
    if (isNode(type) || type.getCallSignatures().length) return 'unknown';
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      const readonly = type.getSymbol()?.name === 'ReadonlyArray';
      return `${readonly ? 'readonly ' : ''}${wrap(element!)}[]`;
    }
    if (checker.isTupleType(type)) {
      const target = (type as ts.TypeReference).target as ts.TupleType;
      const elements = checker.getTypeArguments(type as ts.TypeReference).map((t, i) => {
        const flag = target.elementFlags[i]!;
        if (flag & ts.ElementFlags.Rest) return `...${wrap(t)}[]`;
        return `${print(t)}${flag & ts.ElementFlags.Optional ? '?' : ''}`;
      });
      return `${target.readonly ? 'readonly ' : ''}[${elements.join(', ')}]`;
    }
    const lib = libName(type);
    if (lib) {
      const args = checker.getTypeArguments(type as ts.TypeReference);
      return args.length ? `${lib}<${args.map(print).join(', ')}>` : lib;
    }
    const id = idOf(type);
    if ((seen.get(id) ?? 0) > 1) {
      let name = names.get(id);
      if (!name) {
        name = nameFor(type);
        names.set(id, name);
        declarations.push(`type ${name} = ${body(type)};`);
      }
      return name;
    }
    return body(type);
  };
  const wrap = (type: ts.Type) => {
    const text = print(type);
    return (type.isUnion() || type.isIntersection()) && !(type.flags & ts.TypeFlags.Boolean) ? `(${text})` : text;
  };
  const body = (type: ts.Type): string => {
    const members = checker.getPropertiesOfType(type).map((p) => {
      const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
      return `${key(p.name)}${optional}: ${print(checker.getTypeOfSymbol(p))};`;
    });
    for (const info of checker.getIndexInfosOfType(type)) members.push(`[key: ${print(info.keyType)}]: ${print(info.type)};`);
    return members.length ? `{ ${members.join(' ')} }` : '{}';
  };

  // The procedures, nested as the router nests them.
  interface Procedure {
    kind: 'query' | 'mutation' | 'subscription';
    input: ts.Type;
    output: ts.Type;
  }
  type Tree = { [name: string]: Tree | Procedure };
  const walk = (type: ts.Type): Tree => {
    const tree: Tree = {};
    for (const symbol of checker.getPropertiesOfType(type)) {
      const value = checker.getTypeOfSymbol(symbol);
      const procedureDef = checker.getPropertyOfType(value, '_def');
      if (procedureDef) {
        const d = checker.getTypeOfSymbol(procedureDef);
        const kind = (prop(d, 'type') as ts.StringLiteralType).value as Procedure['kind'];
        const types = prop(d, '$types');
        tree[symbol.name] = { kind, input: prop(types, 'input'), output: prop(types, 'output') };
      } else tree[symbol.name] = walk(value);
    }
    return tree;
  };
  const tree = walk(record);
  const isProcedure = (node: Tree | Procedure): node is Procedure => 'kind' in node && 'input' in node && typeof node.kind === 'string';
  const visit = (node: Tree) => {
    for (const value of Object.values(node)) {
      if (isProcedure(value)) {
        count(value.input);
        count(value.output);
      } else visit(value);
    }
  };
  count(errorShape);
  visit(tree);

  const PROCEDURE = { query: 'TRPCQueryProcedure', mutation: 'TRPCMutationProcedure', subscription: 'TRPCSubscriptionProcedure' };
  const render = (node: Tree, indent: string): string =>
    `{\n${Object.entries(node)
      .map(([name, value]) =>
        isProcedure(value)
          ? `${indent}  ${key(name)}: ${PROCEDURE[value.kind]}<{ input: ${print(value.input)}; output: ${print(value.output)}; meta: object }>;`
          : `${indent}  ${key(name)}: ${render(value, `${indent}  `)};`,
      )
      .join('\n')}\n${indent}}`;
  const records = render(tree, '');
  const shape = print(errorShape);
  return [
    '// Generated by scripts/build-client.ts (scripts/lib/client-router-type.ts) from src/routers/index.ts: the',
    "// router's type as the client sees it, every input and output in plain TypeScript.",
    "import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure, TRPCSubscriptionProcedure, TrackedEnvelope } from '@trpc/server';",
    '',
    ...declarations,
    '',
    `export type ServerRouter = TRPCBuiltRouter<{ ctx: object; meta: object; errorShape: ${shape}; transformer: false }, ${records}>;`,
    '',
  ].join('\n');
}
