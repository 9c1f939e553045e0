/**
 * Label colours as GitLab's Gitlab::Color handles them: `#RGB` / `#RRGGBB` kept as given (trimmed),
 * CSS colour names (any case) turned into upper-case hex, and a text colour picked by WCAG contrast.
 */

const HEX = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/** GitLab's Gitlab::Color::Constants: text on light backgrounds, text on dark ones. */
export const DARK_TEXT = "#1F1E24";
export const LIGHT_TEXT = "#FFFFFF";

/** The colour GitLab gives labels it creates by name (issue edits with unknown labels). */
export const DEFAULT_LABEL_COLOR = "#6699cc";

/** The CSS named colours GitLab accepts (Gitlab::Color::Constants::COLOR_NAME_TO_HEX). */
export const COLOR_NAMES: Readonly<Record<string, string>> = {
  black: "#000000", silver: "#C0C0C0", gray: "#808080", white: "#FFFFFF", maroon: "#800000", red: "#FF0000",
  purple: "#800080", fuchsia: "#FF00FF", green: "#008000", lime: "#00FF00", olive: "#808000", yellow: "#FFFF00",
  navy: "#000080", blue: "#0000FF", teal: "#008080", aqua: "#00FFFF", orange: "#FFA500", aliceblue: "#F0F8FF",
  antiquewhite: "#FAEBD7", aquamarine: "#7FFFD4", azure: "#F0FFFF", beige: "#F5F5DC", bisque: "#FFE4C4",
  blanchedalmond: "#FFEBCD", blueviolet: "#8A2BE2", brown: "#A52A2A", burlywood: "#DEB887", cadetblue: "#5F9EA0",
  chartreuse: "#7FFF00", chocolate: "#D2691E", coral: "#FF7F50", cornflowerblue: "#6495ED", cornsilk: "#FFF8DC",
  crimson: "#DC143C", darkblue: "#00008B", darkcyan: "#008B8B", darkgoldenrod: "#B8860B", darkgray: "#A9A9A9",
  darkgreen: "#006400", darkgrey: "#A9A9A9", darkkhaki: "#BDB76B", darkmagenta: "#8B008B", darkolivegreen: "#556B2F",
  darkorange: "#FF8C00", darkorchid: "#9932CC", darkred: "#8B0000", darksalmon: "#E9967A", darkseagreen: "#8FBC8F",
  darkslateblue: "#483D8B", darkslategray: "#2F4F4F", darkslategrey: "#2F4F4F", darkturquoise: "#00CED1",
  darkviolet: "#9400D3", deeppink: "#FF1493", deepskyblue: "#00BFFF", dimgray: "#696969", dimgrey: "#696969",
  dodgerblue: "#1E90FF", firebrick: "#B22222", floralwhite: "#FFFAF0", forestgreen: "#228B22", gainsboro: "#DCDCDC",
  ghostwhite: "#F8F8FF", gold: "#FFD700", goldenrod: "#DAA520", greenyellow: "#ADFF2F", grey: "#808080",
  honeydew: "#F0FFF0", hotpink: "#FF69B4", indianred: "#CD5C5C", indigo: "#4B0082", ivory: "#FFFFF0", khaki: "#F0E68C",
  lavender: "#E6E6FA", lavenderblush: "#FFF0F5", lawngreen: "#7CFC00", lemonchiffon: "#FFFACD", lightblue: "#ADD8E6",
  lightcoral: "#F08080", lightcyan: "#E0FFFF", lightgoldenrodyellow: "#FAFAD2", lightgray: "#D3D3D3",
  lightgreen: "#90EE90", lightgrey: "#D3D3D3", lightpink: "#FFB6C1", lightsalmon: "#FFA07A", lightseagreen: "#20B2AA",
  lightskyblue: "#87CEFA", lightslategray: "#778899", lightslategrey: "#778899", lightsteelblue: "#B0C4DE",
  lightyellow: "#FFFFE0", limegreen: "#32CD32", linen: "#FAF0E6", mediumaquamarine: "#66CDAA", mediumblue: "#0000CD",
  mediumorchid: "#BA55D3", mediumpurple: "#9370DB", mediumseagreen: "#3CB371", mediumslateblue: "#7B68EE",
  mediumspringgreen: "#00FA9A", mediumturquoise: "#48D1CC", mediumvioletred: "#C71585", midnightblue: "#191970",
  mintcream: "#F5FFFA", mistyrose: "#FFE4E1", moccasin: "#FFE4B5", navajowhite: "#FFDEAD", oldlace: "#FDF5E6",
  olivedrab: "#6B8E23", orangered: "#FF4500", orchid: "#DA70D6", palegoldenrod: "#EEE8AA", palegreen: "#98FB98",
  paleturquoise: "#AFEEEE", palevioletred: "#DB7093", papayawhip: "#FFEFD5", peachpuff: "#FFDAB9", peru: "#CD853F",
  pink: "#FFC0CB", plum: "#DDA0DD", powderblue: "#B0E0E6", rosybrown: "#BC8F8F", royalblue: "#4169E1",
  saddlebrown: "#8B4513", salmon: "#FA8072", sandybrown: "#F4A460", seagreen: "#2E8B57", seashell: "#FFF5EE",
  sienna: "#A0522D", skyblue: "#87CEEB", slateblue: "#6A5ACD", slategray: "#708090", slategrey: "#708090",
  snow: "#FFFAFA", springgreen: "#00FF7F", steelblue: "#4682B4", tan: "#D2B48C", thistle: "#D8BFD8", tomato: "#FF6347",
  turquoise: "#40E0D0", violet: "#EE82EE", wheat: "#F5DEB3", whitesmoke: "#F5F5F5", yellowgreen: "#9ACD32",
  rebeccapurple: "#663399",
};

/** What is stored for a colour param: a known name becomes its hex, anything else is kept trimmed. */
export function normalizeColor(value: string): string {
  const trimmed = value.trim();
  return Object.hasOwn(COLOR_NAMES, trimmed.toLowerCase()) ? COLOR_NAMES[trimmed.toLowerCase()] : trimmed;
}

export const isValidColor = (value: string) => HEX.test(value);

function rgb(hex: string): [number, number, number] {
  const digits = hex.slice(1);
  const pairs = digits.length === 3 ? [...digits].map((c) => c + c) : [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 6)];
  return pairs.map((p) => Number.parseInt(p, 16)) as [number, number, number];
}

const srgb = (v: number) => {
  const n = v / 255;
  return n <= 0.03928 ? n / 12.92 : ((n + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2.1 relative luminance. */
const luminance = ([r, g, b]: [number, number, number]) => 0.2126 * srgb(r) + 0.7152 * srgb(g) + 0.0722 * srgb(b);

/**
 * Whether a background is light, as Gitlab::Color#light? (matching GitLab UI): dark text only when
 * white text would reach less than 2.4:1 and dark text contrasts better. Invalid colours are dark.
 */
export function isLightColor(color: string): boolean {
  if (!isValidColor(color)) return false;
  const l = luminance(rgb(color));
  const contrastLight = (luminance([255, 255, 255]) + 0.05) / (l + 0.05);
  const contrastDark = (l + 0.05) / (luminance([31, 30, 36]) + 0.05);
  return !(contrastLight >= 2.4 || contrastLight > contrastDark);
}

/** The label's text_color: dark on light backgrounds, white otherwise. */
export const textColorFor = (color: string) => (isLightColor(color) ? DARK_TEXT : LIGHT_TEXT);
