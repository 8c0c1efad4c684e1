import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', 'libs/db/migrations/**'] },
  {
    files: ['**/*.ts'],
    rules: {
      // Apps depend on libs, never the reverse; libs are tagged scope:lib, apps scope:app.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib'] },
            { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests assert on rows they just wrote; `row!` there is the assertion.
    files: ['**/*.test.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // SQL is written with postgres.js tagged templates, fragments and sql(identifier), which parameterise or
    // escape every value. sql.unsafe sends text as it is: nothing in apps or libs needs it (databases are
    // created with identifiers too); a future need goes into one vetted helper listed here as an exception.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='unsafe']", message: 'sql.unsafe bypasses parameters: use sql`...` fragments and sql(identifier) (CONVENTIONS 7).' },
      ],
    },
  },
  {
    // Provider SDKs are imported only inside libs/providers (CONVENTIONS 8).
    files: ['apps/**/*.ts', 'libs/!(providers)/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@aws-sdk/*', '@google-cloud/*', '@deepgram/*', '@elevenlabs/*', 'openai', '@anthropic-ai/*', 'nodemailer'], message: 'Provider SDKs are used only inside libs/providers.' },
          ],
        },
      ],
    },
  },
];
