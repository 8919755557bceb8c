// ESLint flat config: typescript-eslint's recommended rules, with formatting left to Prettier.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'build/', 'coverage/', '.cache/', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        NodeJS: 'readonly',
        performance: 'readonly'
      }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off'
    }
  },
  {
    // CommonJS on purpose: the stand-ins for lazily loaded packages (src/lazy) are read as namespaces.
    files: ['**/*.cjs', '**/*.d.cts'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  prettier
)
