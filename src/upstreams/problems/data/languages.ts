/** Programming languages the judge accepts (`Query.languages`). */
import type { Language } from './types.ts';

export const languages: Language[] = [
  { id: 'c11', name: 'GNU C11', version: 'gcc 13.2.0', extensions: ['.c'] },
  { id: 'cpp17', name: 'C++17', version: 'g++ 13.2.0', extensions: ['.cpp', '.cc', '.cxx'] },
  { id: 'cpp20', name: 'C++20', version: 'g++ 13.2.0', extensions: ['.cpp', '.cc', '.cxx'] },
  { id: 'java21', name: 'Java 21', version: 'OpenJDK 21.0.2', extensions: ['.java'] },
  { id: 'kotlin19', name: 'Kotlin 1.9', version: 'kotlinc 1.9.22', extensions: ['.kt'] },
  { id: 'python3', name: 'Python 3', version: 'CPython 3.12.1', extensions: ['.py'] },
  { id: 'pypy3', name: 'PyPy 3', version: 'PyPy 7.3.15 (Python 3.10)', extensions: ['.py'] },
  { id: 'rust2021', name: 'Rust 2021', version: 'rustc 1.75.0', extensions: ['.rs'] },
  { id: 'go', name: 'Go', version: 'go 1.22.0', extensions: ['.go'] },
  { id: 'csharp12', name: 'C# 12', version: '.NET 8.0.1', extensions: ['.cs'] },
  { id: 'nodejs20', name: 'JavaScript', version: 'Node.js 20.11.0', extensions: ['.js', '.mjs'] },
  { id: 'haskell', name: 'Haskell', version: 'GHC 9.4.8', extensions: ['.hs'] },
  { id: 'ocaml', name: 'OCaml', version: 'ocamlopt 5.1.1', extensions: ['.ml'] },
  { id: 'pascal', name: 'Free Pascal', version: 'fpc 3.2.2', extensions: ['.pas', '.pp'] },
];
