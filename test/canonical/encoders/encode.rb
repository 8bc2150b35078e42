# Real Ruby encoder for the trap-model tests: JSON.generate(JSON.parse(text)), as is (ruby) and
# with every hash's keys sorted (ruby-sorted). stdin: one JSON text per line; stdout: per line,
# tab-separated, the hex of each result's bytes, or "!" and the error's class.
require 'json'

def deep_sort(value)
  case value
  when Hash then value.sort.to_h { |k, v| [k, deep_sort(v)] }
  when Array then value.map { |v| deep_sort(v) }
  else value
  end
end

def encode
  yield.unpack1('H*')
rescue StandardError, SystemStackError => e
  "!#{e.class}"
end

$stdin.set_encoding('UTF-8')
$stdout.sync = false
$stdin.each_line do |line|
  begin
    value = JSON.parse(line)
  rescue StandardError, SystemStackError => e
    puts(["!#{e.class}"] * 2 * "\t")
    next
  end
  puts [encode { JSON.generate(value) }, encode { JSON.generate(deep_sort(value)) }].join("\t")
end
