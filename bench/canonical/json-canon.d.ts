/** json-canon ships no types: its one export serializes a value per RFC 8785. */
declare module 'json-canon' {
  export default function serialize(value: unknown): string;
}
