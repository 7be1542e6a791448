import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * What the provider kit (src/providers/kit) already does once: a provider folder that defines one of these again
 * is refused, so the copies cannot start to disagree (whitespace, zones, entities, unbounded caches).
 */
const KIT_HELPERS = [
  'toDate', 'toIso', 'fromEpochMs', 'fromEpochSeconds', 'toEpochSeconds', 'isoSeconds',
  'nonEmpty', 'text', 'str', 'trimmed', 'asRecord', 'has', 'isNotFound', 'unsupported', 'unsupportedBy',
  'htmlToText', 'htmlToParagraphs', 'decodeEntities', 'escapeHtml', 'textToHtml', 'paragraphsToHtml', 'parseHtml',
  'nextLink', 'hasNextLink', 'parseLinkHeader',
];
const helperNames = `/^(${KIT_HELPERS.join('|')})$/`;
const kitMessage = 'the provider kit (src/providers/kit) has this helper: import it from "../kit" instead of defining it again';

export const providerKitRules = {
  'no-restricted-syntax': [
    'error',
    { selector: `FunctionDeclaration[id.name=${helperNames}]`, message: kitMessage },
    { selector: `VariableDeclarator[id.name=${helperNames}][init.type=/^(ArrowFunctionExpression|FunctionExpression)$/]`, message: kitMessage },
    {
      // A module-level Map holding per-connection values grows with every connection: use the kit's ConnectionCache.
      selector: 'Program > VariableDeclaration > VariableDeclarator > NewExpression[callee.name="Map"][arguments.length=0]',
      message: 'a module-level Map in a provider grows with every connection: use ConnectionCache from "../kit" (bounded)',
    },
    {
      selector: 'ClassBody > PropertyDefinition > NewExpression[callee.name="Map"][arguments.length=0]',
      message: 'a Map kept on a provider object grows with every connection: use ConnectionCache from "../kit" (bounded)',
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist.tmp-*/', '.omniport/', 'test-artifacts/', 'src/store/migrations/', 'sdk/dist/', 'sdk/src/openapi.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/providers/*/**/*.ts'], ignores: ['src/providers/kit/**'], rules: providerKitRules },
);
