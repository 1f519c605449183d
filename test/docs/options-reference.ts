import ts from 'typescript';
import { SETTING_GROUPS } from '../../src/gateway/settings.ts';
import type { Setting } from '../../src/gateway/settings/setting-table.ts';
import { ROOT } from './snippets.ts';

export const OPTIONS_START = '<!-- createGateway options: generated from GatewayOptions (test/docs/options-reference.test.ts) -->';
export const OPTIONS_END = '<!-- end of createGateway options -->';

export interface OptionDoc {
  name: string;
  type: string;
  defaultValue: string;
  description: string;
}

/**
 * Every property of `GatewayOptions` (inherited ones included), as its declaration spells its type,
 * with the first sentence-block of its doc comment and its `@default` tag.
 */
export function gatewayOptionDocs(): OptionDoc[] {
  const file = `${ROOT}src/gateway/create-gateway.ts`;
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const declaration = source.statements.find((node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'GatewayOptions');
  if (!declaration) throw new Error('src/gateway/create-gateway.ts declares no GatewayOptions interface');
  const type = checker.getTypeAtLocation(declaration.name);
  return checker.getPropertiesOfType(type).map((property) => {
    const node = property.valueDeclaration ?? property.declarations?.[0];
    const written = node && ts.isPropertySignature(node) && node.type ? node.type.getText() : checker.typeToString(checker.getTypeOfSymbol(property));
    const tags = property.getJsDocTags(checker);
    const defaultTag = tags.find((tag) => tag.name === 'default');
    return {
      name: property.name,
      type: written.replace(/\s+/g, ' '),
      defaultValue: defaultTag ? ts.displayPartsToString(defaultTag.text).trim() : '–',
      description: ts.displayPartsToString(property.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim(),
    };
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The Markdown table the README carries between its markers. */
export function optionsTable(options = gatewayOptionDocs()): string {
  return [
    OPTIONS_START,
    '| option | type | default | what it is |',
    '|---|---|---|---|',
    ...options.map((option) => `| \`${option.name}\` | \`${cell(option.type)}\` | ${cell(option.defaultValue)} | ${cell(option.description)} |`),
    OPTIONS_END,
  ].join('\n');
}

/** The README with its options table replaced by `table`. */
export function withOptionsTable(readme: string, table = optionsTable()): string {
  const start = readme.indexOf(OPTIONS_START);
  const end = readme.indexOf(OPTIONS_END);
  if (start < 0 || end < start) throw new Error('README.md has no createGateway options markers');
  return readme.slice(0, start) + table + readme.slice(end + OPTIONS_END.length);
}

export const SETTINGS_START = '<!-- settings: generated from src/gateway/settings/setting-table.ts (test/docs/options-reference.test.ts) -->';
export const SETTINGS_END = '<!-- end of settings -->';

/** A default as the README shows it: the table's own words, else the value. */
function shownDefault(setting: Setting): string {
  if (setting.shownDefault) return setting.shownDefault;
  const value = setting.default;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : `\`${value.join(',')}\``;
  return `\`${String(value)}\``;
}

/** The configuration reference's tables (docs/configuration.md), one per group of the settings table (variable, option, doc, kind with its bounds, default), between their markers. */
export function settingsTables(groups: readonly { title: string; settings: Record<string, Setting> }[] = SETTING_GROUPS): string {
  const tables = groups.map(({ title, settings }) =>
    [
      `**${title}**`,
      '',
      '| variable | option | meaning | value | default |',
      '|---|---|---|---|---|',
      ...Object.entries(settings).map(
        ([option, setting]) => `| \`${setting.variable}\` | \`${option}\` | ${cell(linkedFromDocs(setting.doc))} | ${cell(setting.kind.type)} | ${cell(shownDefault(setting))} |`,
      ),
    ].join('\n'),
  );
  return [SETTINGS_START, ...tables, SETTINGS_END].join('\n\n');
}

/** A doc line as docs/configuration.md shows it: its links to README sections lead there. */
function linkedFromDocs(doc: string): string {
  return doc.replaceAll('](#', '](../README.md#');
}

/** docs/configuration.md with its tables replaced by `tables`. */
export function withSettingsTables(readme: string, tables = settingsTables()): string {
  const start = readme.indexOf(SETTINGS_START);
  const end = readme.indexOf(SETTINGS_END);
  if (start < 0 || end < start) throw new Error('docs/configuration.md has no settings markers');
  return readme.slice(0, start) + tables + readme.slice(end + SETTINGS_END.length);
}
