// How TypeScript becomes JavaScript here, in one place: the build (scripts/compile.js -> dist/) and jest's
// transform use the same swc options, so the CLI the tests spawn runs the code the tests import. Types are checked
// apart, by `npm run typecheck` (tsc), which CI runs first.
module.exports = {
  jsc: {
    parser: { syntax: "typescript", decorators: true },
    // TypeORM's and TypeGraphQL's decorators, and the design-time types they read (tsconfig.json's
    // experimentalDecorators and emitDecoratorMetadata).
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: "es2022",
  },
  module: { type: "commonjs" },
};
