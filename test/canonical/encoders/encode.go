// Real Go encoder for the trap-model tests: json.Unmarshal into an `any` (objects become
// map[string]any), then json.Marshal. stdin: one JSON text per line; stdout: per line, the hex
// of the bytes Marshal produced, or "!" and the error.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var value any
		if err := json.Unmarshal(in.Bytes(), &value); err != nil {
			fmt.Fprintln(out, "!"+strings.ReplaceAll(err.Error(), "\t", " "))
			continue
		}
		bytes, err := json.Marshal(value)
		if err != nil {
			fmt.Fprintln(out, "!"+strings.ReplaceAll(err.Error(), "\t", " "))
			continue
		}
		fmt.Fprintln(out, hex.EncodeToString(bytes))
	}
}
