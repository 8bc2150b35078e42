<?php
// Real PHP encoder for the trap-model tests. Variants, tab-separated per input line:
//   php            json_encode(json_decode($text)) with object keys sorted by ksort(SORT_STRING)
//   php-assoc      json_encode(json_decode($text, true)), arrays sorted by ksort(SORT_STRING)
//   php-unsorted   json_encode(json_decode($text))
//   php-unescaped  as php, with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE
// Each result is the hex of json_encode's bytes, or "!" and json_last_error_msg().

function sort_objects($value) {
    if ($value instanceof stdClass) {
        $members = (array) $value;
        ksort($members, SORT_STRING);
        foreach ($members as $key => $member) $members[$key] = sort_objects($member);
        return (object) $members;
    }
    return is_array($value) ? array_map('sort_objects', $value) : $value;
}

function sort_arrays($value) {
    if (!is_array($value)) return $value;
    if (!array_is_list($value)) ksort($value, SORT_STRING);
    return array_map('sort_arrays', $value);
}

function encode($text, $assoc, $sort, $flags) {
    $value = json_decode($text, $assoc);
    if (json_last_error() !== JSON_ERROR_NONE) return '!' . json_last_error_msg();
    if ($sort) $value = $assoc ? sort_arrays($value) : sort_objects($value);
    $json = json_encode($value, $flags);
    return $json === false ? '!' . json_last_error_msg() : bin2hex($json);
}

while (($line = fgets(STDIN)) !== false) {
    $text = rtrim($line, "\n");
    echo implode("\t", [
        encode($text, false, true, 0),
        encode($text, true, true, 0),
        encode($text, false, false, 0),
        encode($text, false, true, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
    ]), "\n";
}
