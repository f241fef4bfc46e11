package apnsmock;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** The library's one Jackson mapper, with unchecked parse and write. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException error) {
            throw new IllegalArgumentException("not JSON: " + error.getOriginalMessage(), error);
        }
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (IOException error) { // JsonProcessingException, declared as IOException by some releases
            throw new IllegalArgumentException("cannot be written as JSON: " + error.getMessage(), error);
        }
    }
}
