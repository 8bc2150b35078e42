// Real Java number formatting for the trap-model tests. The JDK has no JSON encoder, so this
// measures the part every Java/Kotlin JSON library delegates to the JDK: Double.toString.
// stdin: one number lexeme per line; stdout: Double.toString(Double.parseDouble(lexeme)).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;

public class Doubles {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        PrintWriter out = new PrintWriter(System.out);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            out.println(Double.toString(Double.parseDouble(line)));
        }
        out.flush();
    }
}
